"""SetUp's components, loaded from `components.json` and checked at import.

The rules code only uses the tables below, never the file's layout, so the printed tile list
and board links can replace ours by editing the JSON alone. Tiles and squares are numbered in
file order; the rules work on those small ints and the edges (events, moves, views) use the ids.
"""
from __future__ import annotations

import json
from pathlib import Path

COMPONENTS_FILE = Path(__file__).with_name("components.json")
SIDES = 4  # the board has four sides, one per possible seat (0 south, 1 west, 2 north, 3 east)


class ComponentDataError(ValueError):
    """The components file does not describe a playable SetUp set."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ComponentDataError(f"{COMPONENTS_FILE.name}: {message}")


def _unique_ids(items: list, what: str) -> list:
    ids = [item.get("id") if isinstance(item, dict) else None for item in items]
    _require(all(isinstance(i, str) and i for i in ids), f"every {what} needs a string id")
    _require(len(set(ids)) == len(ids), f"{what} ids must be unique")
    return ids


def _load(doc: dict) -> dict:
    """Validates the document and builds the lookup tables (pure, so tests can feed bad data)."""
    _require(isinstance(doc, dict), "the file must hold an object")
    suits = _unique_ids(doc.get("suits") or [], "suit")
    tiles = doc.get("tiles") or []
    tile_ids = _unique_ids(tiles, "tile")
    _require(len(tiles) >= 8, "there must be enough tiles to play")
    faces = set()
    for tile in tiles:
        _require(tile.get("suit") in suits, f"tile {tile['id']} has an unknown suit")
        number = tile.get("number")
        _require(isinstance(number, int) and not isinstance(number, bool) and number >= 1,
                 f"tile {tile['id']} needs a whole number of at least 1")
        # The set rule reads "same number, different suits": unique faces keep it unambiguous.
        _require((tile["suit"], number) not in faces, f"tile {tile['id']} repeats a suit and number")
        faces.add((tile["suit"], number))
    squares = doc.get("squares") or []
    square_ids = _unique_ids(squares, "square")
    owners = []
    for square in squares:
        owner = square.get("owner")
        _require(owner is None or (isinstance(owner, int) and not isinstance(owner, bool)
                                   and 0 <= owner < SIDES),
                 f"square {square['id']} has an owner that is not a side 0-3 or null")
        owners.append(owner)
    _require(None in owners, "the board needs at least one common square")
    for side in range(SIDES):
        _require(side in owners, f"side {side} owns no bonus square")
    index = {sq: i for i, sq in enumerate(square_ids)}
    neighbours: list[set[int]] = [set() for _ in square_ids]
    for link in doc.get("links") or []:
        _require(isinstance(link, list) and len(link) == 2 and all(s in index for s in link),
                 f"link {link!r} must name two known squares")
        a, b = index[link[0]], index[link[1]]
        _require(a != b, f"link {link!r} links a square to itself")
        _require(b not in neighbours[a], f"link {link!r} is listed twice")
        neighbours[a].add(b)
        neighbours[b].add(a)
    return {
        "suits": tuple(suits),
        "tile_ids": tuple(tile_ids),
        "suit": tuple(suits.index(t["suit"]) for t in tiles),
        "number": tuple(t["number"] for t in tiles),
        "square_ids": tuple(square_ids),
        "owner": tuple(owners),
        "neighbours": tuple(tuple(sorted(n)) for n in neighbours),
        "links": tuple(tuple(link) for link in doc["links"]),
    }


def load_file(path: Path = COMPONENTS_FILE) -> dict:
    return _load(json.loads(path.read_text(encoding="utf-8")))


_T = load_file()
SUITS: tuple = _T["suits"]            # suit ids, e.g. "heart"
TILE_IDS: tuple = _T["tile_ids"]      # tile index -> id, e.g. "su-heart-7"
TILE_INDEX: dict = {t: i for i, t in enumerate(TILE_IDS)}
SUIT: tuple = _T["suit"]              # tile index -> suit index
NUMBER: tuple = _T["number"]          # tile index -> number
SQUARE_IDS: tuple = _T["square_ids"]  # square index -> id, e.g. "C1"
SQUARE_INDEX: dict = {s: i for i, s in enumerate(SQUARE_IDS)}
OWNER: tuple = _T["owner"]            # square index -> side owning it as a bonus square, or None
NEIGHBOURS: tuple = _T["neighbours"]  # square index -> linked square indexes
LINKS: tuple = _T["links"]            # the links as pairs of square ids (for views)
N_TILES = len(TILE_IDS)
N_SQUARES = len(SQUARE_IDS)


def tile_face(tile: int) -> dict:
    """A tile as clients see it."""
    return {"id": TILE_IDS[tile], "suit": SUITS[SUIT[tile]], "number": NUMBER[tile]}
