"""High Card: a tiny but complete game the platform tests run on, independent of the real
games' rules. It has everything the platform must handle: secret hands dealt by chance, a
simultaneous phase (every seat bids at once), a system move (the round is scored by the
worker), bots, and an end.

Each of 3 rounds: every seat is dealt a secret card (1-9); all seats bid 0-2 chips at once;
the system scores: the highest card among the bidders wins the pot of bids (ties split: nobody
wins). Most chips after 3 rounds wins.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from domain.contract import EVERYONE, SYSTEM, GameDef, MoveRejected, Option, is_seat

ROUNDS = 3


@dataclass(frozen=True)
class S:
    n: int
    rounds: int
    round: int = 0
    hands: tuple = ()
    bids: tuple = ()  # None for a seat that has not bid yet
    chips: tuple = ()
    over: bool = False


def setup(options, n, rng):
    return [{"type": "started", "seats": n, "rounds": options["rounds"]}, _deal(n, 1, rng)]


def _deal(n, round_, rng):
    return {"type": "dealt", "round": round_, "cards": [f"hc-{round_}-{rng.randint(1, 9)}-{s}" for s in range(n)]}


def evolve(state, e):
    t = e["type"]
    if t == "started":
        return S(n=e["seats"], rounds=e["rounds"], chips=(10,) * e["seats"])
    if t == "dealt":
        return replace(state, round=e["round"], hands=tuple(e["cards"]), bids=(None,) * state.n)
    if t == "bid":
        bids = list(state.bids)
        bids[e["seat"]] = e["chips"]
        return replace(state, bids=tuple(bids))
    if t == "scored":
        return replace(state, chips=tuple(e["chips"]), over=e["final"])
    raise ValueError(t)


def _value(card):
    return int(card.split("-")[2])


def actors(state):
    if state.over:
        return []
    waiting = [s for s in range(state.n) if state.bids[s] is None]
    return waiting or [SYSTEM]


def legal_moves(state, actor):
    if actor not in actors(state):
        return []
    if actor == SYSTEM:
        return [{"type": "score_round"}]
    return [{"type": "bid", "chips": c} for c in range(0, min(2, state.chips[actor]) + 1)]


def decide(state, actor, move, rng):
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise MoveRejected("invalid_move", "A move is an object with a 'type'.")
    if state.over:
        raise MoveRejected("game_over", "The game is over.")
    if actor not in actors(state):
        raise MoveRejected("not_your_turn", "It is not your turn.")
    if move not in legal_moves(state, actor):
        raise MoveRejected("illegal_move", "You cannot make that move now.")
    if actor == SYSTEM:
        return _score(state, rng)
    return [{"type": "bid", "v": 2, "seat": actor, "chips": move["chips"]}]


def _score(state, rng):
    chips = [c - b for c, b in zip(state.chips, state.bids)]
    bidders = [s for s in range(state.n) if state.bids[s] > 0]
    best = max((_value(state.hands[s]) for s in bidders), default=None)
    winners = [s for s in bidders if _value(state.hands[s]) == best]
    pot = sum(state.bids)
    if len(winners) == 1:
        chips[winners[0]] += pot
    else:
        chips = list(state.chips)  # a tie (or nobody bid): everyone takes their bid back
    final = state.round == state.rounds
    events = [{"type": "scored", "round": state.round, "chips": chips, "hands": list(state.hands), "final": final}]
    if not final:
        events.append(_deal(state.n, state.round + 1, rng))
    return events


def view(state, viewer):
    return {
        "round": state.round,
        "chips": list(state.chips),
        "has_bid": [b is not None for b in state.bids],
        "hand": state.hands[viewer] if is_seat(viewer) else None,
        "hands": list(state.hands) if viewer == EVERYONE else None,
        "to_act": actors(state),
    }


def redact(event, viewer):
    if event["type"] == "dealt" and viewer != EVERYONE:
        return {**event, "cards": [c if s == viewer else None for s, c in enumerate(event["cards"])]}
    if event["type"] == "bid" and viewer != EVERYONE and viewer != event["seat"]:
        return {"type": "bid", "v": 2, "seat": event["seat"], "chips": None}
    return event


def result(state):
    if not state.over:
        return None
    top = max(state.chips)
    return {"winners": [s for s in range(state.n) if state.chips[s] == top], "scores": list(state.chips)}


def secrets(state):
    if state.over:
        return {}
    return {card: frozenset({s}) for s, card in enumerate(state.hands)}


def stale_ok(then, now, actor):
    """Bids are simultaneous: other seats' bids in the same round cannot change mine."""
    return is_seat(actor) and then.round == now.round and now.bids[actor] is None and not now.over


def _bid_v1_to_v2(event):
    """Version 1 of `bid` named the chips `amount`; histories recorded then still replay."""
    return {"type": "bid", "v": 2, "seat": event["seat"], "chips": event["amount"]}


def _random(state, seat, rng):
    return rng.choice(legal_moves(state, seat))


def _bold(state, seat, rng):
    moves = legal_moves(state, seat)
    return moves[-1] if _value(state.hands[seat]) >= 6 else moves[0]


GAME = GameDef(
    name="high-card", title="High Card (platform test game)", min_seats=2, max_seats=4, rules_version="1",
    setup=setup, decide=decide, evolve=evolve, legal_moves=legal_moves, actors=actors, view=view,
    redact=redact, result=result, secrets=secrets, bots={"random": _random, "bold": _bold},
    options=(Option("rounds", "integer", ROUNDS, "Rounds to play.", minimum=1, maximum=9),),
    test_configs=((2, {}), (3, {}), (4, {})), stale_ok=stale_ok, max_events=100,
    move_types={"bid": "Bid 0-2 chips", "score_round": "System: score the round"},
    upcasters={("bid", 1): _bid_v1_to_v2},
)
