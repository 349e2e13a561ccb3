"""What each viewer may see: views, redacted events and the secrets oracle.

Public: tokens, bonuses, bought cards, nobles, points, the market, deck sizes and face-up
reserved cards. Secret: the order (and content) of every deck, from everyone until the game is
over; a card reserved blind from a deck, from everyone but its owner (others see its level).
"""
from __future__ import annotations

from collections.abc import Container
from typing import TYPE_CHECKING, Any

from ..contract import EVERY_TYPE, EVERYONE, SYSTEM, AllBut
from .data import CARD_IDS, CARDS, NOBLE_IDS, TOKEN_LIMIT, card_json, noble_json, tokens_json
from .rules import outcome
from .state import EMPTY, NOBLE, OVER, RETURN, SCORE, State, qualifying_nobles

if TYPE_CHECKING:
    from domain.contract import Event, Viewer


def actors(state: State) -> list:
    if state.phase == OVER:
        return []
    if state.phase == SCORE:
        return [SYSTEM]
    return [state.seat]


def _reserved_json(card: int, visible: bool) -> dict:
    if visible:
        return {**card_json(card), "hidden": False}
    return {"hidden": True, "level": CARDS[card].level}


def _player_json(state: State, seat: int, viewer: Viewer) -> dict[str, Any]:
    player = state.players[seat]
    sees_all = viewer == EVERYONE or viewer == seat
    return {
        "seat": seat,
        "tokens": tokens_json(player.tokens),
        "token_count": sum(player.tokens),
        "bonuses": dict(zip(("white", "blue", "green", "red", "black"), player.bonuses)),
        "points": player.points,
        "cards": [CARD_IDS[c] for c in player.bought],
        "reserved": [_reserved_json(c, sees_all or c not in player.blind) for c in player.reserved],
        "nobles": [NOBLE_IDS[x] for x in player.nobles],
    }


def _pending(state: State) -> dict | None:
    """What the seat to act must finish before its turn ends, if anything."""
    if state.phase == RETURN:
        player = state.players[state.seat]
        return {"seat": state.seat, "return_tokens": sum(player.tokens) - TOKEN_LIMIT}
    if state.phase == NOBLE:
        nobles = qualifying_nobles(state.players[state.seat].bonuses, state.nobles)
        return {"seat": state.seat, "nobles": [NOBLE_IDS[x] for x in nobles]}
    return None


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    out = {
        "phase": state.phase,
        "to_act": actors(state),
        "turn": state.seat,
        "turns_played": state.turns,
        "last_round": state.last_round,
        "you": viewer if isinstance(viewer, int) and not isinstance(viewer, bool) else None,
        "options": {"strict_take_three": state.strict},
        "supply": tokens_json(state.supply),
        "market": [[card_json(c) if c != EMPTY else None for c in row] for row in state.market],
        "deck_sizes": [len(deck) for deck in state.decks],
        "nobles": [noble_json(x) for x in state.nobles],
        "players": [_player_json(state, seat, viewer) for seat in range(state.n)],
        "pending": _pending(state),
        "result": outcome(state) if state.phase == OVER else None,
    }
    if viewer == EVERYONE:
        out["decks"] = [[CARD_IDS[c] for c in deck] for deck in state.decks]
    return out


def redact(event: Event, viewer: Viewer) -> Event:
    """A shallow copy (the caller may add fields such as the version) without what the viewer
    may not see: the deck order in game_started, the card of another seat's blind reserve."""
    if viewer == EVERYONE:
        return dict(event)
    kind = event["type"]
    if kind == "game_started":
        return {k: v for k, v in event.items() if k != "decks"}
    if kind == "card_reserved" and event["source"] == "deck" and viewer != event["seat"]:
        return {k: v for k, v in event.items() if k != "card"}
    return dict(event)


_HIDING = AllBut("game_started", "card_reserved")


def as_stored(viewer: Viewer) -> Container[str]:
    """The types redact leaves as they are: all but the deal and a reserve (open once over)."""
    return EVERY_TYPE if viewer == EVERYONE else _HIDING


def secrets(state: State) -> dict:
    out: dict[str, frozenset[int]] = {}
    for deck in state.decks:
        for card in deck:
            out[CARD_IDS[card]] = frozenset()
    for seat, player in enumerate(state.players):
        for card in player.blind:
            out[CARD_IDS[card]] = frozenset((seat,))
    return out
