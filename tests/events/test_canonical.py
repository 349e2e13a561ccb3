"""codec.canonical is json.dumps(value, sort_keys=True, separators=(",", ":")) byte for byte
(fingerprints of it are stored), whichever of orjson or json writes it."""
from __future__ import annotations

import json
import random

import pytest

from events import codec

SAMPLES = [
    [0, {"type": "take_gems", "colors": ["red", "blue", "green"]}, 7],
    ["table", {"b": 1, "a": [1, {"d": 2, "c": 3}]}, 2 ** 31],
    [1, {"x": 1e-05, "y": 1e16, "z": 0.1, "w": -0.0, "v": 1e300, "u": 5.0}, 0],
    [1, {"text": "é", "del": "\x7f", "ctl": "\x00\x1f\b\f\n\r\t\"\\/"}, 1],
    [1, {"big": 2 ** 64, "neg": -2 ** 63, "max": 2 ** 63 - 1}, 1],
    [1, {"1": "a", "10": "b", "2": "c", "B": 1, "a": 2, "_": 3}, 1],
    [None, True, False, [], {}, ""],
    {"seats": [{"name": "Ada", "bot": None}, {"name": None, "bot": "careful"}]},
    "Ünïcødé ✓ 🎲",
]


def _random(rng: random.Random, depth: int = 0):
    pick = rng.randrange(9 if depth < 4 else 6)
    if pick == 0:
        return rng.randint(-2 ** 70, 2 ** 70) if rng.random() < 0.1 else rng.randint(-1000, 10 ** 6)
    if pick == 1:
        return rng.choice([0.5, 1e-7, 3.14159, 1e22, -2.5e-3, 12.0, rng.random() * 10 ** rng.randint(-8, 20)])
    if pick == 2:
        return "".join(rng.choice("ab1e.\x7f\x01é \"\\/") for _ in range(rng.randrange(6)))
    if pick in (3, 4, 5):
        return rng.choice([None, True, False, "take_gems", "c12", 3])
    if pick in (6, 7):
        return {rng.choice(["a", "B", "1", "é", "e1", "z"]) + str(i): _random(rng, depth + 1) for i in range(rng.randrange(4))}
    return [_random(rng, depth + 1) for _ in range(rng.randrange(4))]


@pytest.mark.parametrize("value", SAMPLES + [_random(random.Random(seed)) for seed in range(300)], ids=repr)
def test_canonical_is_json_dumps_sorted_and_compact(value):
    assert codec.canonical(value) == json.dumps(value, sort_keys=True, separators=(",", ":"))


def test_a_move_goes_through_orjson():
    move = [0, {"type": "take_gems", "colors": ["red", "blue", "green"]}, 7]
    assert codec._NOT_LIKE_JSON.search(codec.orjson.dumps(move, option=codec.orjson.OPT_SORT_KEYS)) is None
