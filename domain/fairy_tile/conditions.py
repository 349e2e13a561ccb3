"""The story cards' condition language, over the card words.

    expr   := term ("or" term)*
    term   := factor ("and" factor)*
    factor := "(" expr ")" | atom
    atom   := FIG "see" FIG | FIG "see" PLACE | FIG "see" N PLACE      (N places on one line)
            | FIG "arrive" PLACE | FIG "meet" FIG ["on" PLACE] | FIG "pass" "castle"
    PLACE  := TERRAIN | "river" | "big" TERRAIN | "big" "river"
    FIG    := princess | knight | dragon;  TERRAIN := plain | forest | mountain | castle

Example: "dragon arrive castle and (dragon see princess or dragon see knight)".
Parsed conditions are nested tuples; `holds` evaluates one against a Context.
"""
from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .kingdom import Kingdom
from .tiles import FIGURES, TERRAINS

if TYPE_CHECKING:
    from .hexgrid import Hex


# A parsed condition: (kind, ...) nested tuples, e.g. ("and", (tree, tree)) or ("see", fig, place).
Tree = tuple[Any, ...]
Place = tuple[str, ...]  # ("terrain", t), ("river",), ("big", t) or ("big_river",)


class ConditionError(ValueError):
    pass


@dataclass(frozen=True)
class Context:
    kingdom: Kingdom
    pos: dict          # figure -> hex
    moved: frozenset   # figures the player moved this turn
    passed: frozenset  # figures that passed a castle this turn
    # figure -> the kingdom as it was when that moved figure stopped (rules fairy-tile-2: "laying
    # a tile never satisfies arrive or meet", so their places are judged there); a moved figure
    # missing here stopped in `kingdom` (no tile was laid after it).
    stopped: Mapping[str, Kingdom] = field(default_factory=dict)

    def where_stopped(self, *figures: str) -> Kingdom:
        """The kingdom the last of these moved figures stopped in (a kingdom only grows)."""
        kingdoms = [self.stopped.get(f, self.kingdom) for f in figures if f in self.moved]
        return max(kingdoms, key=lambda k: len(k.cells), default=self.kingdom)


def parse(text: str) -> Tree:
    tokens = re.findall(r"\(|\)|[a-z]+|\d+", text.lower())
    parser = _Parser(tokens)
    tree = parser.expr()
    if parser.i != len(tokens):
        raise ConditionError(f"unexpected {tokens[parser.i]!r} in {text!r}")
    return tree


class _Parser:
    def __init__(self, tokens: list[str]) -> None:
        self.tokens, self.i = tokens, 0

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self, *expected: str) -> str:
        token = self.peek()
        if token is None or (expected and token not in expected):
            raise ConditionError(f"expected {expected or 'a word'}, got {token!r}")
        self.i += 1
        return token

    def expr(self) -> Tree:
        parts = [self.term()]
        while self.peek() == "or":
            self.take()
            parts.append(self.term())
        return parts[0] if len(parts) == 1 else ("or", tuple(parts))

    def term(self) -> Tree:
        parts = [self.factor()]
        while self.peek() == "and":
            self.take()
            parts.append(self.factor())
        return parts[0] if len(parts) == 1 else ("and", tuple(parts))

    def factor(self) -> Tree:
        if self.peek() == "(":
            self.take()
            tree = self.expr()
            self.take(")")
            return tree
        return self.atom()

    def atom(self) -> Tree:
        fig = self.take(*FIGURES)
        verb = self.take("see", "arrive", "meet", "pass")
        if verb == "see":
            if self.peek() in FIGURES:
                return ("see_fig", fig, self.take())
            ahead = self.peek()
            if ahead is not None and ahead.isdigit():
                return ("see_line", fig, int(self.take()), self.place())
            return ("see", fig, self.place())
        if verb == "arrive":
            return ("arrive", fig, self.place())
        if verb == "meet":
            other = self.take(*FIGURES)
            if other == fig:
                raise ConditionError("a figure cannot meet itself")
            place = None
            if self.peek() == "on":
                self.take()
                place = self.place()
            return ("meet", fig, other, place)
        self.take("castle")
        return ("pass", fig, ("terrain", "castle"))

    def place(self) -> Place:
        word = self.take("big", "river", *TERRAINS)
        if word == "river":
            return ("river",)
        if word == "big":
            word = self.take("river", "plain", "forest", "mountain")
            return ("big_river",) if word == "river" else ("big", word)
        return ("terrain", word)


def matches(kingdom: Kingdom, h: Hex, place: Place) -> bool:
    kind = place[0]
    if kind == "terrain":
        return kingdom.cells[h][0] == place[1]
    if kind == "river":
        return bool(kingdom.cells[h][1])
    if kind == "big":
        return h in kingdom.big(place[1])
    return h in kingdom.big_river()


def holds(tree: Tree, ctx: Context) -> bool:
    kind = tree[0]
    if kind == "and":
        return all(holds(t, ctx) for t in tree[1])
    if kind == "or":
        return any(holds(t, ctx) for t in tree[1])
    k, pos = ctx.kingdom, ctx.pos
    if kind == "see_fig":
        return pos[tree[2]] in k.sight(pos[tree[1]])
    if kind == "see":
        return any(matches(k, h, tree[2]) for h in k.sight(pos[tree[1]]))
    if kind == "see_line":
        return any(sum(1 for h in line if matches(k, h, tree[3])) >= tree[2] for line in k.lines(pos[tree[1]]))
    if kind == "arrive":
        return tree[1] in ctx.moved and matches(ctx.where_stopped(tree[1]), pos[tree[1]], tree[2])
    if kind == "meet":
        f, g, place = tree[1], tree[2], tree[3]
        return (pos[f] == pos[g] and (f in ctx.moved or g in ctx.moved)
                and (place is None or matches(ctx.where_stopped(f, g), pos[f], place)))
    if kind == "pass":
        return tree[1] in ctx.passed
    raise ConditionError(f"unknown condition {kind!r}")


def figures_in(tree: Tree) -> frozenset[str]:
    """The figures a condition mentions."""
    if tree[0] in ("and", "or"):
        return frozenset().union(*(figures_in(t) for t in tree[1]))
    if tree[0] in ("see_fig", "meet"):
        return frozenset(tree[1:3])
    return frozenset([tree[1]])


def movers_in(tree: Tree) -> frozenset[str]:
    """The figures whose movement this turn (arrive, meet, pass) a condition looks at."""
    if tree[0] in ("and", "or"):
        return frozenset().union(*(movers_in(t) for t in tree[1]))
    if tree[0] == "meet":
        return frozenset(tree[1:3])
    if tree[0] in ("arrive", "pass"):
        return frozenset([tree[1]])
    return frozenset()
