"""codec.canonical is json.dumps(value, sort_keys=True, separators=(",", ":")) byte for byte
(fingerprints of it are stored), whichever of orjson or json writes it."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# Any JSON value: integers of any size, floats of any exponent, text of any code point (keys
# too), nested; Hypothesis leans to the edges (0, -0.0, 2 ** 64, "\x7f", surrogates).
JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(), lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                    max_leaves=20)


@pytest.mark.parametrize("value", SAMPLES, ids=repr)
def test_canonical_is_json_dumps_sorted_and_compact(value):
    assert codec.canonical(value) == json.dumps(value, sort_keys=True, separators=(",", ":"))


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(JSON)
def test_canonical_is_json_dumps_sorted_and_compact_for_any_json(value):
    assert codec.canonical(value) == json.dumps(value, sort_keys=True, separators=(",", ":"))


def test_a_move_goes_through_orjson():
    move = [0, {"type": "take_gems", "colors": ["red", "blue", "green"]}, 7]
    assert codec._NOT_LIKE_JSON.search(codec.orjson.dumps(move, option=codec.orjson.OPT_SORT_KEYS)) is None
