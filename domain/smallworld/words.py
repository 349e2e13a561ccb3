"""Small World of Warcraft in words (issue 32): move labels, event and result sentences.

People find a region by its island and the number the board prints on its hex, so a region
is named by its terrain, that number and its island ("Forest 3 on Kalimdor"); the islands
are the server's own (no printed map), so each side gets a name of its own here. Races,
powers, markers and the special pieces are named as the box names them. A pick says the
combo ("the Farmer Dwarves") and its cost, never the display index. Turn scores are secret
until the game ends: a viewer who may not see one is told only that the turn was scored.

A few events carry several optional facts (a conquest's defender and the marker it turns
up, the bombs a Goblin turn reveals): their templates are built from parts here, every
combination declared, so each sentence reads whole in any language.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import TYPE_CHECKING, Any

from domain.words import GameWords, Message, count, piece, place, player, word

from . import catalog, islands
from .costs import DIE_MAX, offer_for
from .team import COLUMNS

if TYPE_CHECKING:
    from .contract_bits import Move
    from .state import State

ISLANDS = {
    "L1a": "Kalimdor", "L1b": "Northrend", "L2a": "the Eastern Kingdoms", "L2b": "Pandaria",
    "M1a": "Outland", "M1b": "Draenor", "M2a": "Kul Tiras", "M2b": "Zandalar",
    "S1a": "Quel'Danas", "S1b": "Tol Barad", "S2a": "the Broken Isles", "S2b": "Kezan",
}
PIECES = {"fort": "Fort", "tower": "Watch Tower", "objective": "Military Objective", "bomb": "bomb",
          "wisp_wall": "Wisp Wall", "murlocs": "Murlocs"}
FORMS = ("human", "worgen")
FACTIONS = {"alliance": "Alliance", "horde": "Horde", "neutral": "Neutral"}
MOST_OTHERS = 4  # seats other than one: the most people a sentence lists


def people(name: str, k: int) -> str:
    """"{name1}", "{name1} and {name2}", "{name1}, {name2} and {name3}"...: k people."""
    said = [f"{{{name}{i + 1}}}" for i in range(k)]
    return said[0] if k == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def people_args(name: str, seats: Sequence[int]) -> dict[str, Any]:
    return {f"{name}{i + 1}": player(s) for i, s in enumerate(seats)}


def region_name(side: str, n: int, terrain: str) -> str:
    return f"{terrain.capitalize()} {n} on {ISLANDS[side]}"


def _names() -> dict:
    out = {k: v["name"] for table in (catalog.RACES, catalog.POWERS, catalog.MARKERS) for k, v in table.items()}
    out["marshdweller"] = "Marsh Dweller"  # the catalogue's name is spelled as the box's badge
    out.update(PIECES)
    out.update(ISLANDS)
    for side, data in islands.load().items():
        out.update({f"{side}-{r['n']}": region_name(side, r["n"], r["terrain"]) for r in data["regions"]})
    return out


def _plural(forms: tuple[str, str], n: int, **args: dict) -> Message:
    """The message of a (singular, plural) pair, chosen by the count `n`."""
    return Message(forms[0], {**args, "n": count(n)}, plural=forms[1], count="n")


# --- moves ------------------------------------------------------------------------------------

PICK_FREE = "Pick the {power} {race} for free"
PICK = ("Pick the {power} {race} for {n} coin", "Pick the {power} {race} for {n} coins")
PICK_TAKE = ("Pick the {power} {race} (cost: {cost}) and take the {n} coin on it",
             "Pick the {power} {race} (cost: {cost}) and take the {n} coins on it")
PICK_FREE_TAKE = ("Pick the {power} {race} for free and take the {n} coin on it",
                  "Pick the {power} {race} for free and take the {n} coins on it")
READY = {None: "Ready your troops", "human": "Ready your troops in human form (gain 2 coins)",
         "worgen": "Ready your troops in worgen form (pay 1 coin: conquests cost 1 less)"}
CONQUER = ("Conquer {region} with {n} token", "Conquer {region} with {n} tokens")
CONQUER_USE = ("Conquer {region} with {n} token, using {use}", "Conquer {region} with {n} tokens, using {use}")
AIRBORNE = ("Airborne assault on {region}: {n} token before the free die",
            "Airborne assault on {region}: {n} tokens before the free die")
FINAL = ("Final conquest of {region}, {n} token short: roll the reinforcement die",
         "Final conquest of {region}, {n} tokens short: roll the reinforcement die")
FINAL_USE = ("Final conquest of {region} using {use}, {n} token short: roll the reinforcement die",
             "Final conquest of {region} using {use}, {n} tokens short: roll the reinforcement die")
PLACE = ("Place {n} token on {region}", "Place {n} tokens on {region}")
BUY = ("Buy {n} token (1 coin each)", "Buy {n} tokens (1 coin each)")
BUY_NONE = "Buy no tokens"
DONE_PLACING = {"objective": "Place no more Military Objectives this turn",
                "bomb": "Place no more bombs this turn", None: "Place no more pieces this turn"}
MOVES = {
    "pick": [PICK_FREE, *PICK, *PICK_TAKE, *PICK_FREE_TAKE],
    "skip_pick": ["Pass: there is nothing to pick"],
    "decline": ["Put the {race} into decline"],
    "ready": list(READY.values()),
    "abandon": ["Abandon {region}"],
    "conquer": [*CONQUER, *CONQUER_USE, *AIRBORNE, "Conquer {region}"],
    "final_conquest": [*FINAL, *FINAL_USE],
    "end_conquests": ["Stop conquering and redeploy"],
    "place": list(PLACE),
    "place_champion": ["Place your Champion on {region}"],
    "move_marker": ["Move the {marker} to {region}", "Keep the {marker} on {region}"],
    "steal_artifact": ["Take the {marker} from {source} to {target}"],
    "intimidate": ["Drive 1 token out of {region}", "Drive 1 token out of {region} into {target}"],
    "portal": ["Open a portal: swap what {a} and {b} hold"],
    "buy_tokens": [*BUY, BUY_NONE],
    "place_piece": ["Place a {piece} on {region}"],
    "done_placing": list(DONE_PLACING.values()),
    "score_turn": ["Score the turn"],
}


def _combo(state: State, seat: int, k: int) -> tuple[Any, ...]:
    """(race, power, coins lying on it) of display position k (team game: row k)."""
    if state.team:
        row = state.rows[k]
        return row[COLUMNS.index(state.players[seat].faction)], row[0], 0
    return state.display[k]


def _pick(state: State, seat: int, move: Move) -> Message:
    k = move["index"]
    race, power, lying = _combo(state, seat, k)
    args = {"race": piece(race), "power": piece(power)}
    if lying:
        return _plural(PICK_TAKE, lying, cost=count(k), **args) if k else _plural(PICK_FREE_TAKE, lying, **args)
    return _plural(PICK, k, **args) if k else Message(PICK_FREE, args)


def _conquer(state: State, seat: int, move: Move) -> Message:
    region = place(move["region"])
    offer = offer_for(state, seat, state.map.index[move["region"]], move.get("use"))
    if offer is None:
        return Message("Conquer {region}", {"region": region})
    if offer.die:
        return _plural(AIRBORNE, offer.cost, region=region)
    if offer.use:
        return _plural(CONQUER_USE, offer.cost, region=region, use=piece(offer.use))
    return _plural(CONQUER, offer.cost, region=region)


def _final(state: State, seat: int, move: Move) -> Message:
    region = place(move["region"])
    offer = offer_for(state, seat, state.map.index[move["region"]], move.get("use"))
    hand = state.players[seat].hand
    short = max(1, min(offer.cost - hand, 2 * DIE_MAX)) if offer else 1
    if move.get("use"):
        return _plural(FINAL_USE, short, region=region, use=piece(move["use"]))
    return _plural(FINAL, short, region=region)


def _marker(state: State, move: Move) -> Message:
    at = next((state.map.ids[i] for i, r in enumerate(state.regions) if r.marker == move["marker"]), None)
    template = "Keep the {marker} on {region}" if at == move["region"] else "Move the {marker} to {region}"
    return Message(template, {"marker": piece(move["marker"]), "region": place(move["region"])})


def _steal(state: State, move: Move) -> Message:
    marker = state.regions[state.map.index[move["from"]]].marker
    return Message("Take the {marker} from {source} to {target}",
                   {"marker": piece(marker), "source": place(move["from"]), "target": place(move["to"])})


def _intimidate(move: dict) -> Message:
    if move.get("to"):
        return Message("Drive 1 token out of {region} into {target}",
                       {"region": place(move["region"]), "target": place(move["to"])})
    return Message("Drive 1 token out of {region}", {"region": place(move["region"])})


def _simple_move(state: State, seat: int, move: Move) -> Message:
    kind = move["type"]
    region = {"region": place(move["region"])} if "region" in move else {}
    if kind == "decline":
        return Message("Put the {race} into decline", {"race": piece(state.players[seat].race)})
    if kind == "ready":
        return Message(READY.get(move.get("form"), READY[None]))
    if kind == "place":
        return _plural(PLACE, move["count"], **region)
    if kind == "buy_tokens":
        return _plural(BUY, move["count"]) if move["count"] else Message(BUY_NONE)
    if kind == "place_piece":
        return Message("Place a {piece} on {region}", {"piece": piece(move["piece"]), **region})
    if kind == "done_placing":
        return Message(DONE_PLACING.get(move["piece"], DONE_PLACING[None]))
    if kind == "portal":
        return Message("Open a portal: swap what {a} and {b} hold", {"a": place(move["a"]), "b": place(move["b"])})
    return Message(MOVES[kind][0], region)


def move(state: State, seat: int, m: Move) -> Message:
    kind = m["type"]
    if kind == "pick":
        return _pick(state, seat, m)
    if kind == "conquer":
        return _conquer(state, seat, m)
    if kind == "final_conquest":
        return _final(state, seat, m)
    if kind == "move_marker":
        return _marker(state, m)
    if kind == "steal_artifact":
        return _steal(state, m)
    if kind == "intimidate":
        return _intimidate(m)
    return _simple_move(state, seat, m)


# --- events -----------------------------------------------------------------------------------

# region_conquered: who held it, how many tokens, what it turned up; every combination declared.
TAKEN = {"empty": "{player} conquers {region}", "seat": "{player} takes {region} from {owner}'s {race}",
         "ownerless": "{player} takes {region} from the {race}"}
WITH = (" with {n} token", " with {n} tokens")
FOUND = {"none": "", "marker": " and turns up the {marker}",
         "well": " and turns up the {marker}, which flows to {well}"}


def conquest_templates(taken: str, found: str) -> tuple:
    return tuple(TAKEN[taken] + w + FOUND[found] for w in WITH)


# bombs_revealed: which bombs exploded, were duds, went back unseen.
BOMB_PARTS = {"live": "explode on {live}", "duds": "are duds on {duds}", "back": "go back unseen from {back}"}


def bomb_template(parts: tuple) -> str:
    return "{player}'s bombs " + " and ".join(BOMB_PARTS[p] for p in parts)


BOMB_SETS = [tuple(p for p, on in zip(BOMB_PARTS, flags) if on) for flags in product((1, 0), repeat=3) if any(flags)]
HARMONY = ["{player} gives a Harmony token to {to1}",
           *["{player} gives Harmony tokens to " + people("to", k) for k in range(2, MOST_OTHERS + 1)]]

PICKED_FREE = "{player} picks the {power} {race} for free"
PICKED = ("{player} picks the {power} {race} for {n} coin", "{player} picks the {power} {race} for {n} coins")
PICKED_TAKE = ("{player} picks the {power} {race} (cost: {cost}) and takes the {n} coin on it",
               "{player} picks the {power} {race} (cost: {cost}) and takes the {n} coins on it")
PICKED_FREE_TAKE = ("{player} picks the {power} {race} for free and takes the {n} coin on it",
                    "{player} picks the {power} {race} for free and takes the {n} coins on it")
PLACING_DONE = {"objective": "{player} places no more Military Objectives this turn",
                "bomb": "{player} places no more bombs this turn", None: "{player} places no more pieces this turn"}
REFILLED = ("The {power} {race} joins the display",
            "{n} combos join the display: the races {races} with the powers {powers}")
ENDED = ("{player} ends their conquests and gets {n} extra token",
         "{player} ends their conquests and gets {n} extra tokens")
PLACED = ("{player} places {n} token on {region}", "{player} places {n} tokens on {region}")
BOUGHT = ("{player} buys {n} token", "{player} buys {n} tokens")
SCORED = ("{player} scores {n} coin this turn ({total} in all)", "{player} scores {n} coins this turn ({total} in all)")
PAID = [("{player}'s turn is scored; {p1} pays them {n} coin", "{player}'s turn is scored; {p1} pays them {n} coins"),
        *[(f"{{player}}'s turn is scored; {people('p', k)} pay them {{n}} coin in all",
           f"{{player}}'s turn is scored; {people('p', k)} pay them {{n}} coins in all")
          for k in range(2, MOST_OTHERS + 1)]]
TOWERS = {"added": "{player} raises Watch Towers on {added}",
          "removed": "{player} takes down the Watch Towers on {removed}",
          "both": "{player} raises Watch Towers on {added} and takes down those on {removed}"}

RESULT_ONE = ("{w1} wins with {n} coin", "{w1} wins with {n} coins")
RESULT_TIE_BROKEN = ("{w1} wins with {n} coin, having more tokens on the map",
                     "{w1} wins with {n} coins, having more tokens on the map")
RESULT_SHARED = [(people("w", k) + " share the win with {n} coin", people("w", k) + " share the win with {n} coins")
                 for k in range(2, MOST_OTHERS + 2)]
RESULT_TEAM = ("{faction} wins with {n} coin", "{faction} wins with {n} coins")
RESULT_TEAMS = ("{faction} share the win with {n} coin", "{faction} share the win with {n} coins")
RESULTS = [*RESULT_ONE, *RESULT_TIE_BROKEN, *[t for pair in RESULT_SHARED for t in pair], *RESULT_TEAM,
           *RESULT_TEAMS, "The game ends with no winner"]

EVENTS = {
    "game_started": ["The game begins on {islands}: {n} rounds", "Battle for Azeroth begins on {islands}: {n} rounds"],
    "combo_picked": [PICKED_FREE, *PICKED, *PICKED_TAKE, *PICKED_FREE_TAKE],
    "display_refilled": list(REFILLED),
    "rows_refilled": ["New on the display: {pieces}"],
    "troops_readied": ["{player} readies their troops", "{player} readies their troops in {form} form"],
    "declined": ["{player} puts the {race} into decline",
                 "{player} puts the {race} into decline; their old {old} leave the map"],
    "region_abandoned": ["{player} abandons {region}"],
    "region_conquered": [t for taken, found in product(TAKEN, FOUND) for t in conquest_templates(taken, found)],
    "reinforcement_rolled": ["{player} rolls {roll} on the reinforcement die for {region}"],
    "airborne_rolled": ["{player}'s free die for the airborne assault on {region} rolls {roll}: it now costs {cost}"],
    "conquest_failed": ["{player} fails to conquer {region}"],
    "conquests_ended": ["{player} ends their conquests", *ENDED],
    "tokens_placed": list(PLACED),
    "marker_moved": ["{player} moves the {marker} from {source} to {target}",
                     "{player} keeps the {marker} on {target}"],
    "tokens_bought": ["{player} buys no tokens", *BOUGHT],
    "champion_placed": ["{player} places their Champion on {region}"],
    "piece_placed": ["{player} places a {piece} on {region}"],
    "placing_done": list(PLACING_DONE.values()),
    "turn_passed": ["{player} has nothing to pick and passes"],
    "turn_scored": [*SCORED, "{player}'s turn is scored", *[t for pair in PAID for t in pair]],
    "game_over": ["The game is over", *RESULTS],
    "bombs_revealed": [bomb_template(parts) for parts in BOMB_SETS],
    "defences_built": ["{player} builds a Fort on {regions}", "{player} builds Forts on {regions}", *TOWERS.values()],
    "harmony_given": HARMONY,
    "artifact_stolen": ["{player} takes the {marker} from {source} to {target}"],
    "portal_opened": ["{player} opens a portal: {a} and {b} swap what they hold"],
    "intimidated": ["{player} drives a token out of {region}", "{player} drives a token out of {region} into {target}",
                    "{player} intimidates {region}: its {piece} is removed"],
}


def _picked(data: dict, who: dict) -> Message:
    args = {**who, "race": piece(data["race"]), "power": piece(data["power"])}
    if data.get("took") and data.get("paid"):
        return _plural(PICKED_TAKE, data["took"], cost=count(data["paid"]), **args)
    if data.get("took"):
        return _plural(PICKED_FREE_TAKE, data["took"], **args)
    return _plural(PICKED, data["paid"], **args) if data.get("paid") else Message(PICKED_FREE, args)


def _refilled(data: dict) -> Message:
    combos = data["combos"]
    if len(combos) == 1:
        return Message(REFILLED[0], {"race": piece(combos[0]["race"]), "power": piece(combos[0]["power"])})
    return Message(REFILLED[1], {"n": count(len(combos)), "races": piece([c["race"] for c in combos]),
                                 "powers": piece([c["power"] for c in combos])})


def _conquered(data: dict, who: dict) -> Message:
    args = {**who, "region": place(data["region"])}
    defender = data.get("defender") or {}
    taken = "empty" if not defender else "ownerless" if defender.get("seat") is None else "seat"
    if defender:
        args["race"] = piece(defender["race"])
    if taken == "seat":
        args["owner"] = player(defender["seat"])
    found = "none" if not data.get("revealed") else "well" if data.get("moved_to") else "marker"
    if found != "none":
        args["marker"] = piece(data["revealed"])
    if found == "well":
        args["well"] = place(data["moved_to"])
    return _plural(conquest_templates(taken, found), data["tokens"], **args)


def _bombs(data: dict, who: dict) -> Message:
    groups = {"live": [b for b in data["bombs"] if b["live"]], "duds": [b for b in data["bombs"] if b["live"] is False],
              "back": [b for b in data["bombs"] if b["live"] is None]}
    parts = tuple(k for k in BOMB_PARTS if groups[k])
    args = {k: place([b["region"] for b in groups[k]]) for k in parts}
    return Message(bomb_template(parts), {**who, **args})


def _defences(data: dict, who: dict) -> Message:
    added, removed = data.get("added", []), data.get("removed", [])
    if data["piece"] == "fort":
        template = "{player} builds a Fort on {regions}" if len(added) == 1 else "{player} builds Forts on {regions}"
        return Message(template, {**who, "regions": place(added)})
    key = "both" if added and removed else "added" if added else "removed"
    args = {k: place(v) for k, v in (("added", added), ("removed", removed)) if v}
    return Message(TOWERS[key], {**who, **args})


def _harmony(data: dict, who: dict) -> Message:
    to = data["to"][:MOST_OTHERS]
    return Message(HARMONY[len(to) - 1], {**who, **people_args("to", to)})


def _scored(data: dict, who: dict) -> Message:
    if "gained" in data:
        return _plural(SCORED, data["gained"], total=count(data["total"]), **who)
    payments = data.get("payments") or []
    if not payments:
        return Message("{player}'s turn is scored", who)
    payers = [p["seat"] for p in payments][:MOST_OTHERS]
    return _plural(PAID[len(payers) - 1], sum(p["coins"] for p in payments), **who, **people_args("p", payers))


def _marker_moved(data: dict, who: dict) -> Message:
    args = {**who, "marker": piece(data["marker"]), "target": place(data["to"])}
    if data.get("from") == data["to"]:
        return Message("{player} keeps the {marker} on {target}", args)
    return Message("{player} moves the {marker} from {source} to {target}", {**args, "source": place(data["from"])})


def _intimidated(data: dict, who: dict) -> Message:
    args = {**who, "region": place(data["region"])}
    if data.get("removed"):
        return Message(EVENTS["intimidated"][2], {**args, "piece": piece(data["removed"])})
    if data.get("to"):
        return Message("{player} drives a token out of {region} into {target}", {**args, "target": place(data["to"])})
    return Message("{player} drives a token out of {region}", args)


def _started(data: dict) -> Message:
    template = EVENTS["game_started"][1 if data.get("team") else 0]
    return Message(template, {"islands": place(data["sides"]), "n": count(data["rounds"])})


def _declined(data: dict, who: dict) -> Message:
    args = {**who, "race": piece(data["race"])}
    if data.get("removed"):
        return Message(EVENTS["declined"][1], {**args, "old": piece(data["removed"])})
    return Message(EVENTS["declined"][0], args)


def _region_event(kind: str, data: dict, who: dict) -> Message:
    args = {**who, "region": place(data["region"])}
    if kind == "reinforcement_rolled":
        return Message(EVENTS[kind][0], {**args, "roll": count(data["roll"])})
    if kind == "airborne_rolled":
        return Message(EVENTS[kind][0], {**args, "roll": count(data["roll"]), "cost": count(data["cost"])})
    if kind == "tokens_placed":
        return _plural(PLACED, data["count"], **args)
    if kind == "piece_placed":
        return Message(EVENTS[kind][0], {**args, "piece": piece(data["piece"])})
    return Message(EVENTS[kind][0], args)


def _counted(kind: str, data: dict, who: dict) -> Message:
    if kind == "conquests_ended":
        n = data.get("extra_tokens", 0)
        return _plural(ENDED, n, **who) if n else Message(EVENTS[kind][0], who)
    n = data["count"]
    return _plural(BOUGHT, n, **who) if n else Message(EVENTS[kind][0], who)


def _other(kind: str, data: dict, who: dict) -> Message:
    if kind == "troops_readied":
        form = (data.get("choice") or {}).get("form")
        if form in FORMS:
            return Message(EVENTS[kind][1], {**who, "form": word(form)})
        return Message(EVENTS[kind][0], who)
    if kind == "rows_refilled":
        return Message(EVENTS[kind][0], {"pieces": piece([c["key"] for c in data["cells"]])})
    if kind == "artifact_stolen":
        return Message(EVENTS[kind][0], {**who, "marker": piece(data["marker"]), "source": place(data["from"]),
                                         "target": place(data["to"])})
    if kind == "portal_opened":
        return Message(EVENTS[kind][0], {**who, "a": place(data["a"]), "b": place(data["b"])})
    if kind == "game_over":
        return result(data["result"]) if data.get("result") else Message("The game is over")
    if kind == "placing_done":
        return Message(PLACING_DONE.get(data["piece"], PLACING_DONE[None]), who)
    return Message(EVENTS[kind][0], who)


HANDLERS = {"combo_picked": _picked, "region_conquered": _conquered, "bombs_revealed": _bombs,
            "defences_built": _defences, "harmony_given": _harmony, "turn_scored": _scored,
            "marker_moved": _marker_moved, "intimidated": _intimidated, "declined": _declined}
REGION_EVENTS = ("region_abandoned", "reinforcement_rolled", "airborne_rolled", "conquest_failed",
                 "tokens_placed", "champion_placed", "piece_placed")


def event(kind: str, data: dict[str, Any], actor: object) -> Message:
    who = {"player": player(data["seat"])} if isinstance(data.get("seat"), int) else {}
    if kind == "game_started":
        return _started(data)
    if kind == "display_refilled":
        return _refilled(data)
    if kind in HANDLERS:
        return HANDLERS[kind](data, who)
    if kind in REGION_EVENTS:
        return _region_event(kind, data, who)
    if kind in ("conquests_ended", "tokens_bought"):
        return _counted(kind, data, who)
    return _other(kind, data, who)


# --- the result -------------------------------------------------------------------------------

def result(res: dict) -> Message:
    winners = list(res.get("winners") or [])
    if not winners:
        return Message("The game ends with no winner")
    if res.get("teams"):
        return _team_result(res, winners)
    n = res["scores"][winners[0]]
    if len(winners) == 1:
        pair = RESULT_TIE_BROKEN if res.get("tie_break") else RESULT_ONE
        return _plural(pair, n, w1=player(winners[0]))
    winners = winners[:MOST_OTHERS + 1]
    return _plural(RESULT_SHARED[len(winners) - 2], n, **people_args("w", winners))


def _team_result(res: dict, winners: list) -> Message:
    teams = [t for t in res["teams"] if set(t["seats"]) & set(winners)]
    names = [FACTIONS[t["faction"]] for t in teams]
    pair = RESULT_TEAM if len(teams) == 1 else RESULT_TEAMS
    return _plural(pair, teams[0]["score"], faction=word(names if len(names) > 1 else names[0]))


EFFECTS: dict[str, str] = {
    # races
    "blood_elves": "+1 coin at the end of your turn for each Magic region you hold.",
    "draenei": ("Holy Light: in each opponent's turn, the first token you would lose stays in your hand and is "
        "redeployed."),
    "dwarves": "Each Mountain region you conquer costs 2 tokens less (at least 1).",
    "ethereals": ("Once a turn: move a face-up artifact next to you into your region beside it, or conquer an "
        "adjacent legendary place for 2 tokens less."),
    "forsaken": ("After your last conquest, buy tokens from the tray at 1 coin each: one per opponent token your "
        "race made leave the game this turn."),
    "gnomes": ("Once a turn, an airborne assault on any land region of any island: a free reinforcement die lowers "
        "its cost first."),
    "goblins": ("At the end of your turn, put face-down bombs on adjacent regions of opponents' active races; next "
        "turn a live bomb empties its region."),
    "humans": ("At the end of your turn, put 2 Military Objectives on non-Alliance regions; a non-Horde race that "
        "takes one gains 2 coins, and so do you."),
    "kobolds": ("You may attack any Cavern region as though it were adjacent, and enter the map on a Cavern without "
        "the travel cost."),
    "naga": "You may conquer lakes and seas for the usual cost, and enter the map on one.",
    "night_elves": ("Each Forest region you conquer costs 1 token less and gets a Wisp Wall (+1 defence, kept in "
        "decline)."),
    "orcs": "+1 coin for each region you conquer from an Alliance race, on top of the faction bonus.",
    "pandaren": ("Harmony: at the end of your turn, each opponent whose active race you did not attack gets a token "
        "and must pay you 2 coins to attack you."),
    "tauren": ("Never fewer than 2 tokens in a region, in decline too; a conquered Tauren region still loses only 1 "
        "token."),
    "trolls": "Each non-empty region you conquer costs 1 token less (at least 1).",
    "worgen": ("Each turn, choose a form: human (gain 2 coins at once) or worgen (pay 1 coin: your conquests cost 1 "
        "token less this turn)."),
    # special powers
    "archaeologist": "+1 coin at the end of your turn for each artifact and legendary place your race holds.",
    "battle_master": "+1 coin for each non-empty region you conquer.",
    "beast_master": ("Each turn you get 1 Beast per Hill region you hold (5 at most); Beasts fight as tokens, and a "
        "region you lose gives up a Beast first."),
    "blacksmith": "Every conquest costs 1 token less (at least 1).",
    "championing": ("Once a turn, conquer an adjacent region with 1 token whatever defends it; the Champion stays "
        "there and defends as a token."),
    "defensive": ("At the end of your turn, a Watch Tower goes on each Fields region where you hold the most "
        "neighbouring regions."),
    "enraged": "Conquering a region defended by 2 or more tokens gives you 1 coin per defending token.",
    "explorer": "+1 coin at the end of your turn for each island where your race holds a region.",
    "farmer": "+1 coin at the end of your turn for each Fields region you hold.",
    "fishing": "+1 coin at the end of your turn for each region you hold next to a lake or sea.",
    "garrisoned": "At the end of your turn, a Fort goes on each of your regions; Forts stay after your race declines.",
    "herbalist": "+1 coin at the end of your turn for each Hill region you hold.",
    "intimidating": ("Three times a turn, move 1 token out of an adjacent opponent region into another region of its "
        "race (or discard it)."),
    "marshdweller": ("Opponents pay you 1 coin before conquering one of your Swamp regions, even after your race "
        "declines."),
    "mining": "+1 coin at the end of your turn for each Cavern region you hold.",
    "mountaineer": "+1 coin at the end of your turn for each Mountain region you hold.",
    "portal_mage": ("Twice a turn, two Magic regions swap everything they hold except the mountain and legendary "
        "places."),
    "ranger": "+1 coin at the end of your turn for each Forest region you hold.",
    "sailing": "Your conquests of entry regions not next to your race pay no travel cost.",
    "swamp_walker": "+1 coin at the end of your turn for each Swamp region you hold.",
    # artifacts
    "aegis_of_aggramar": ("Moved to one of your regions at the end of your turn: powers cannot touch it, and an "
        "attacker must pay you 2 coins first."),
    "ashes_of_alar": "Once a turn, conquer any region of any island for its usual cost, as though it were adjacent.",
    "doomhammer": ("Once a turn, conquer any region with 1 token after paying its owner 2 coins (the bank if it has "
        "none)."),
    "frostmourne": "Once a turn, one conquest costs 2 tokens less (at least 1).",
    "heart_of_azeroth": ("Moved to one of your regions at the end of your turn: each opponent whose active race is "
        "next to it pays you 1 coin."),
    # legendary places
    "battleground": ("Your faction bonus counts 2 for a race that lost 2 or more regions; a Neutral holder fights "
        "for the side that pays best."),
    "dark_portal": "+2 coins at the end of your turn.",
    "karazhan": "+1 coin at the end of your turn for each of your other regions with the same terrain as Karazhan's.",
    "lights_hope_chapel": "Your active race loses no token when attacked, even when the Chapel's own region falls.",
    "meeting_stone": "Conquering an entry region not next to your race costs no travel.",
    "spirit_healer": "Your active race gains 1 token from the tray when it redeploys, while the tray has one.",
    "well_of_eternity": ("Flows to its island's lake or sea when found; +2 coins at the end of a turn to the race, "
        "even in decline, with most regions next to it."),
    # special tokens
    "fort": "+1 to the cost of conquering its region; it goes when the region is conquered or emptied.",
    "tower": "Its region cannot be attacked, and no power can touch it.",
    "objective": ("A non-Horde race that conquers its region gains 2 coins, and so do the Humans unless they "
        "conquered it."),
    "bomb": ("Revealed at the start of the Goblins' next turn: a live bomb defeats its region like a conquest and "
        "leaves it empty; a dud does nothing."),
    "wisp_wall": ("+1 to the cost of conquering its Forest; it stays in decline and goes when the region is "
        "conquered or emptied."),
    "murlocs": ("An ownerless race always in decline: each Murloc adds 1 to its region's cost and is discarded when "
        "the region is conquered."),
}


WORDS = GameWords(
    names=_names(),
    move=move,
    event=event,
    result=result,
    moves=MOVES,
    events=EVENTS,
    results=RESULTS,
    vocabulary=(*FORMS, *FACTIONS.values()),
    effects=EFFECTS,
)
