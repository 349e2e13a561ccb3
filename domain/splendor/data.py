"""Splendor's fixed data: colours, the 90 development cards and the 10 nobles.

The CSV files next to this module are copies of `shared/rules/data/` (checked card by card
against scans). Cards and nobles are numbered internally (ints, fast to compare and copy);
their public ids are distinctive strings ("sp-1-07", "sp-noble-03") so the leak check can
find them in any JSON.
"""
from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

COLORS = ("white", "blue", "green", "red", "black")  # the five gem colours, in canonical order
GOLD = 5  # index of gold in a 6-slot token tuple
TOKEN_NAMES = COLORS + ("gold",)
COLOR_INDEX = {name: i for i, name in enumerate(TOKEN_NAMES)}

GEMS_PER_COLOR = {2: 4, 3: 5, 4: 7}
GOLD_TOKENS = 5
MARKET_SLOTS = 4
LEVELS = (1, 2, 3)
RESERVE_LIMIT = 3
TOKEN_LIMIT = 10
WINNING_POINTS = 15
NOBLE_POINTS = 3

_HERE = Path(__file__).resolve().parent


class Card(NamedTuple):
    # The field shadows tuple.index (mypy: an incompatible override); renaming it would change
    # every caller and the pickled snapshots, and no code calls tuple.index on a card.
    index: int  # type: ignore[assignment]  # position in CARDS
    id: str  # public id, e.g. "sp-2-13"
    level: int  # 1..3
    bonus: int  # colour index 0..4
    points: int
    cost: tuple  # 5 ints, in COLORS order


class Noble(NamedTuple):
    index: int  # type: ignore[assignment]  # shadows tuple.index, as Card.index does
    id: str  # e.g. "sp-noble-04"
    points: int
    requires: tuple  # 5 ints: bonuses needed per colour


def _load_cards() -> tuple[Card, ...]:
    cards: list[Card] = []
    per_level = {1: 0, 2: 0, 3: 0}
    with open(_HERE / "splendor_cards.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            level = int(row["level"])
            per_level[level] += 1
            cards.append(Card(
                index=len(cards),
                id=f"sp-{level}-{per_level[level]:02d}",
                level=level,
                bonus=COLORS.index(row["bonus"]),
                points=int(row["points"]),
                cost=tuple(int(row[c]) for c in COLORS),
            ))
    return tuple(cards)


def _load_nobles() -> tuple[Noble, ...]:
    with open(_HERE / "splendor_nobles.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return tuple(
        Noble(index=i, id=f"sp-noble-{i + 1:02d}", points=int(row["points"]),
              requires=tuple(int(row[c]) for c in COLORS))
        for i, row in enumerate(rows)
    )


CARDS = _load_cards()
NOBLES = _load_nobles()
CARD_BY_ID = {card.id: card.index for card in CARDS}
NOBLE_BY_ID = {noble.id: noble.index for noble in NOBLES}
CARD_IDS = tuple(card.id for card in CARDS)
NOBLE_IDS = tuple(noble.id for noble in NOBLES)
# Card indexes per level, in CSV order (setup shuffles them).
LEVEL_CARDS = {level: tuple(c.index for c in CARDS if c.level == level) for level in LEVELS}


def card_json(index: int) -> dict:
    """A face-up card as clients see it: everything printed on it."""
    card = CARDS[index]
    return {
        "id": card.id,
        "level": card.level,
        "bonus": COLORS[card.bonus],
        "points": card.points,
        "cost": dict(zip(COLORS, card.cost)),
    }


def noble_json(index: int) -> dict:
    noble = NOBLES[index]
    return {"id": noble.id, "points": noble.points, "requires": dict(zip(COLORS, noble.requires))}


def tokens_json(counts: Sequence[int]) -> dict[str, int]:
    """A 6-slot token tuple as a full {colour: n} map (gold included)."""
    return dict(zip(TOKEN_NAMES, counts))


def sparse_tokens(counts: Sequence[int]) -> dict[str, int]:
    """A 6-slot token tuple as {colour: n} for the non-zero slots only (the move/event form)."""
    return {TOKEN_NAMES[i]: n for i, n in enumerate(counts) if n}
