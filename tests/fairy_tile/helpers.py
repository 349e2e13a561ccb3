"""Small builders for Fairy Tile test states."""
from __future__ import annotations

from domain.fairy_tile.data import CARDS
from domain.fairy_tile.kingdom import Kingdom
from domain.fairy_tile.rules import evolve, setup
from domain.fairy_tile.state import Seat, State
from domain.play import fold

SHORT = {"p": "plain", "f": "forest", "m": "mountain", "c": "castle"}


def kingdom(spec: dict) -> Kingdom:
    """{(q, r): "f"} or {(q, r): ("f", [river dirs])}."""
    cells = {}
    for h, v in spec.items():
        t, rv = (v, ()) if isinstance(v, str) else v
        cells[h] = (SHORT.get(t, t), frozenset(rv))
    return Kingdom(cells)


def row(terrains: str, r: int = 0, q0: int = 0) -> dict:
    """Hexes (q0, r), (q0+1, r), ... with the given terrain letters."""
    return {(q0 + i, r): t for i, t in enumerate(terrains)}


def card(condition: str) -> str:
    return next(cid for cid, c in CARDS.items() if c["condition"] == condition)


def make(k, princess, knight, dragon, hands=None, books=None, pile=(), magic=(), n=2, **kw) -> State:
    hands = hands or [card("princess arrive castle")] * n
    books = books or [("ft-card-30",)] * n
    seats = tuple(Seat(book=tuple(books[i]), hand=hands[i], magic=i in magic) for i in range(n))
    return State(n=n, round_limit=100, kingdom=k, figures=(princess, knight, dragon),
                 pile=tuple(pile), seats=seats, **kw)


def started(n=2, seed=0, round_limit=100):
    import random
    events = setup({"round_limit": round_limit}, n, random.Random(seed))
    return fold(_game(), events), events


def _game():
    from domain.fairy_tile import GAME
    return GAME


def apply(state, events):
    for e in events:
        state = evolve(state, e)
    return state

