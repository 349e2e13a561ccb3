"""Small World of Warcraft: area control with races, powers, decline (2-5 seats).

The binding rules are `shared/rules/smallworld-of-warcraft.md` (decisions 1-8), then the
full rules in `sources/smallworld-of-warcraft.sources.md`. Modules: `data/` (islands and the
box), `islands` (validated map data), `abilities/` (race, power and marker hooks), `costs`
(eligibility and cost), `rules` (decide), `evolve` + `flow` (state changes), `actions` (special tokens and the
actions of races and powers), `tolls`, `team` (the team game), `scoring`, `moves`, `views`,
`bots`.

Decisions where the rules are silent:
- The box is named in `game_started` (v2): every race, power and marker. First-half games
  (v1, no box) are upcast to the 8 races, 13 powers and 6 markers they were played with.
- Chance is drawn when it happens, into the event: combos that refill the display are drawn
  in `decide` whenever the display is short and the piles are not empty (after a pick, or
  when a banner goes back), as a `display_refilled` (team game: `rows_refilled`) event; the
  unseen banners and badges are unordered sets, a returned banner lies under its pile
  (drawn only once the unseen ones are gone), and discarded badges are drawn, at random,
  only once the badge stack is empty (the discards shuffled into a new stack). A face-down
  marker's identity is drawn from the
  box's markers not yet on the map when its region is first entered; a bomb's (live or dud)
  from the bombs not yet revealed when it is revealed; the die when it is rolled. This is the
  same distribution as a shuffled pile and leaves no hidden order or face to leak.
- Ready your troops is one move (`ready`): every active token but 1 per region (Tauren 2)
  returns to hand; regions may then be abandoned until the first conquest of the turn.
- Redeployment lifts every active token but 1 per region (Tauren 2) into hand after the
  conquests, then the seat places them (`place`, region + count); with one region left it is
  automatic, with none the tokens stay in hand for a first conquest next turn. Defenders
  redeploy the same way, in seat order after the active seat.
- A final conquest (`final_conquest`) is offered only when 1 to 3 tokens are missing (6 for
  the Gnomes' airborne assault, which rolls its free die first); the target is in the move,
  the die rolls in the events. Conquests end after it either way.
- Once-per-turn conquests name their ability in `use`: frostmourne, ashes_of_alar,
  doomhammer, ethereals (a legendary place for 2 less), gnomes (airborne), championing.
  A use is offered only where it changes something (cheaper, or out of reach otherwise;
  the Gnomes and the Champion always). A failed final conquest still spends it.
- Tolls are paid in the conquest's event before it (public, like any payment): Harmony 2
  to the Pandaren (once, the token goes back), MarshDweller 1 (its badge stays with the
  declined race), the Aegis 2 to its owner, Doomhammer 2 to the owner or the bank. A seat
  that cannot pay them cannot attack there.
- Worgen choose their form with `ready` at the start of each turn they begin with the Worgen
  active (not on the turn they are picked, nor when declining); the worgen form needs 1 coin.
- Beasts are race tokens of the Beast Master race (region `beasts` counts them among its
  tokens): they leave the hand first when tokens are placed and the region first when tokens
  are lifted; a conquered region loses a beast before a race token. A Tauren region left
  with 1 token when beasts go is emptied into hand.
- A Champion taken prisoner goes back to its owner's hand (ransom 1 coin if the owner has
  one), who redeploys it like a token (`place_champion`) with the rest; its next use moves
  it onto the region it conquers. A Champion whose region is abandoned, or emptied by an
  intimidation, goes back to its owner's hand the same way (no ransom); a live bomb takes
  it prisoner as a conquest would, for the same ransom to the Goblins.
- The Forsaken buy in a step of their own (`reinforce`, move `buy_tokens`), after Spirit
  Healer's token: one per opponent token (active or declined, not Murlocs) their conquests
  and powers made leave the game this turn, 1 coin each, while the tray has some.
- Goblin bombs are revealed with the Goblins' `ready` or `decline` (a `bombs_revealed` event
  first); a live bomb defeats its region as a conquest would (Holy Light, Light's Hope, a
  beast first) and leaves it empty, but is no conquest of the Goblins for scoring.
- End of an active turn (decision 6): markers that move (Aegis, Heart of Azeroth; move
  `move_marker`, naming its region keeps it there), then the pieces placed one by one
  (Military Objectives, bombs; `place_piece` / `done_placing`); Forts, Watch Towers and
  Harmony tokens are automatic, in the turn's scoring, before it (the scoring comes with the
  move that ends the turn; only the game's last turn is the system's `score_turn`). Humans
  first take their objectives back when they place one; placing none leaves them.
- Payments other seats owe at the end of the turn (the Heart's 1 coin from each opponent whose
  active race is adjacent) are public, in the `turn_scored` event; a seat with no coin pays
  nothing. A non-Horde conqueror of a Military Objective scores its 2 coins with its turn;
  the Humans get theirs at once.
- A Tauren token an intimidation leaves alone goes back to its owner's hand and is
  redeployed at the end of the turn, the region left ("if a Race token would be left alone
  for any reason, ... redeploy it"); a declined Tauren token it leaves alone follows the token
  moved out (`lone_to` in the event: a region of that declined race, or null when the token
  moved out was discarded, and the lone one with it; rules swow-4); a token it discards
  from a Light's Hope Chapel or Holy Light race goes to its hand instead. A portal may not touch a region with a
  face-down marker, a Watch Tower or another seat's Aegis; artifacts go through, places stay;
  a portal moving another seat's active tokens attacks that race (a Harmony holder pays the
  Pandaren first, and a Pandaren portal mage gives that seat no Harmony).
- The Battleground's Neutral race fights for the side that pays it best that turn.
- The Well of Eternity flows to its island's first lake or sea without a marker; with none,
  another legendary place is drawn in its stead.
- Spirit Healer's extra token comes at the start of its holder's own redeployment.
- A seat with nothing to pick (empty display; team game: no row with its faction's race)
  skips its pick (`skip_pick`) and scores its declined race only.
- A race in decline with no region left returns under the banner pile at once.
- Team game: see `team`.
"""
from __future__ import annotations

from . import abilities
from .bots import BOTS
from .contract_bits import GameDef, InvalidOptions, Option
from .determinize import determinize
from .evolve import UPCASTERS, evolve
from .moves import actors, legal_moves
from .rules import decide
from .scoring import final_result
from .setup import setup
from .views import as_stored, redact, result, secrets, view
from .words import WORDS

NOTES = (
    f"The whole box: {len(abilities.RACES)} races, {len(abilities.POWERS)} special powers,"
    f" {len(abilities.MARKERS)} artifacts and legendary places, and every special token"
    " (Wisp Walls, Military Objectives, Harmony, bombs, Forts, Beasts, Watch Towers, the Champion)."
    " Option `team` plays Battle for Azeroth: Alliance against Horde (a Neutral seat with odd seats),"
    " faction-only picks from a 4-row display paid to the bank, a faction scoring its lower member's"
    " coins (`team_score`: `lowest`, or `highest`)."
    " The islands are the server's own (the printed maps were not available)."
)


def _check_options(options: dict, n_seats: int) -> None:
    if options.get("team_score", "lowest") != "lowest" and not options.get("team"):
        raise InvalidOptions("team_score applies to the team game only (set team: true).")


GAME = GameDef(
    name="smallworld-of-warcraft",
    title="Small World of Warcraft",
    min_seats=2,
    max_seats=5,
    rules_version="swow-4",
    check_options=_check_options,
    setup=setup,
    decide=decide,
    evolve=evolve,
    legal_moves=legal_moves,
    actors=actors,
    view=view,
    redact=redact,
    as_stored=as_stored,
    result=result,
    secrets=secrets,
    bots=BOTS,
    determinize=determinize,
    options=(
        Option("team", "boolean", False, "Battle for Azeroth: Alliance against Horde (and Neutral with odd seats)."),
        Option("team_score", "string", "lowest",
               "A faction's score in the team game: its lowest or its highest member's.",
               choices=("lowest", "highest")),
    ),
    upcasters=UPCASTERS,
    test_configs=((2, {}), (3, {}), (4, {}), (5, {}), (2, {"team": True}), (3, {"team": True}),
                  (4, {"team": True}), (5, {"team": True, "team_score": "highest"})),
    max_events=5000,
    notes=NOTES,
    words=WORDS,
    move_types={
        "pick": "Pick the combo at `index` of the display (costs `index` coins, 1 on each combo above).",
        "skip_pick": "Pass the turn when the display is empty.",
        "decline": "Put the active race into decline (start of turn, instead of conquering).",
        "ready": "Ready your troops for an expansion turn (Worgen also choose a `form`).",
        "abandon": "Empty a region of your active race (before your first conquest of the turn).",
        "conquer": "Conquer `region` with the tokens it costs (optionally `use` a marker such as Frostmourne).",
        "final_conquest": "Last conquest of the turn on `region`, 1-3 tokens short: the reinforcement die is rolled.",
        "end_conquests": "Stop conquering and redeploy.",
        "place": "Redeploy `count` tokens from hand to `region`.",
        "place_champion": "Redeploy your ransomed Champion to `region`.",
        "move_marker": "Place a marker you move at the end of your turn (Heart of Azeroth, Aegis) in `region`.",
        "steal_artifact": "Ethereals: move a face-up artifact `from` an adjacent region `to` yours (once a turn).",
        "intimidate": "Intimidating: move 1 token out of the adjacent `region` (`to` another region of its race).",
        "portal": "Portal Mage: swap what regions `a` and `b` (both Magic) hold.",
        "buy_tokens": "Forsaken: buy `count` tokens at 1 coin each after the last conquest.",
        "place_piece": "Place a Military Objective or a bomb (`piece`) in `region` at the end of your turn.",
        "done_placing": "Place no more of `piece` this turn.",
        "score_turn": "System: score the game's last turn (every other turn is scored by the move that ends it).",
    },
)

__all__ = ["GAME", "final_result"]
