"""Bot policies: `random`; `storyteller`, which looks for adventures that complete its card;
`expert` (expert.py), a one-turn lookahead that counts what each seat can tell next.

Every level is handed its seat's determinization (determinize.py: the other hands, the books
and the pile below its top tile drawn anew); none of them reads more than its own hand, the
books' sizes and the pile's top tile, so they play as before.

storyteller, on its turn (only moves that can matter are tried: moves of the figures its card
names, and tiles when the card looks at the land: sight, big regions, rivers):
1. if one adventure makes its card hold, take it (then `finish`, if it has a second one);
2. else, if two adventures in a row make it hold, take the first: with an active magic token it
   takes the second at once, without one it hopes the kingdom stays as it is until next turn;
3. else, after a first adventure, finish;
4. else, if the card can still be completed (see feasibility.plan) and the figures are at most
   WALK moves from where they must stand before the last turn (or few cards are left), move
   one figure a step along a shortest way there;
5. else, if the card cannot be completed in this kingdom, lay a tile (one that makes it
   possible, if any);
6. else turn the page (a new card, and the magic token for next time).
Plans that span turns (2 without a token, 4, 5) give way to turning the page one time in four,
so that two storytellers never tug the same figure to and fro for ever.
"""
from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from domain.search import Searcher, SearchRules, SearchSpec

from .conditions import Context, figures_in, holds
from .data import CONDITIONS
from .decide import decide, move_table
from .determinize import determinize
from .feasibility import can_complete, distances, plan
from .moves import actors, legal_moves
from .rules import evolve
from .tiles import FIGURES
from .views import result

if TYPE_CHECKING:
    from collections.abc import Collection

    from domain.contract import Move

    from .conditions import Tree
    from .hexgrid import Hex
    from .kingdom import Kingdom
    from .state import State


def random_policy(state: State, seat: int, rng: random.Random) -> Move:
    """Uniform over the kinds of move first (so tiles, with their many places, do not crowd out
    the figures), then over the moves of that kind."""
    kinds: dict[str, list[dict[str, Any]]] = {}
    for m in legal_moves(state, seat):
        kinds.setdefault(m.get("figure", m["type"]), []).append(m)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


class _Sim:
    """What a card looks at, after some adventures: a light stand-in for the state."""
    __slots__ = ("kingdom", "pos", "moved", "passed", "pile", "stopped")

    def __init__(self, kingdom: Kingdom, pos: dict[str, Hex], moved: frozenset[str], passed: frozenset[str],
                 pile: tuple[tuple[str, str], ...], stopped: dict[str, Kingdom] | None = None) -> None:
        self.kingdom, self.pos, self.moved, self.passed, self.pile = kingdom, pos, moved, passed, pile
        self.stopped = stopped or {}  # figure -> the kingdom it stopped in (Context.stopped)

    def holds(self, tree: Tree) -> bool:
        return holds(tree, Context(self.kingdom, self.pos, self.moved, self.passed, self.stopped))


def _looks_at_land(tree: Tree) -> bool:
    if tree[0] in ("and", "or"):
        return any(_looks_at_land(t) for t in tree[1])
    if tree[0] in ("see", "see_line", "see_fig"):
        return True
    place = tree[-1]
    return bool(place) and place[0] in ("big", "big_river", "river")


def _next(sim: _Sim, tree: Tree, land: bool, figures: Sequence[str]) -> list[tuple[Move, _Sim]]:
    """[(move, sim after it)] for the adventures worth trying from `sim`."""
    from .movement import MOVERS
    out = []
    for figure in figures:
        for key, to, _, passed in MOVERS[figure](sim.kingdom, sim.pos[figure]):
            move = _move_dict(figure, key)
            after = _Sim(sim.kingdom, {**sim.pos, figure: to}, sim.moved | {figure},
                         sim.passed | {figure} if passed else sim.passed, sim.pile,
                         {**sim.stopped, figure: sim.kingdom})
            out.append((move, after))
    if land and sim.pile:
        tile, side = sim.pile[0]
        for (at, rotation), laid in sim.kingdom.laid(tile, side).items():
            move = {"type": "lay_tile", "at": list(at), "rotation": rotation}
            out.append((move, _Sim(laid, sim.pos, sim.moved, sim.passed, sim.pile[1:], sim.stopped)))
    return out


def _needs_land(tree: Tree) -> bool:
    if tree[0] in ("and", "or"):
        return any(_needs_land(t) for t in tree[1])
    place = tree[-1]
    return bool(place) and (place[0] in ("big", "big_river") or tree[0] == "see_line")


def _first_moves(state: State, seat: int) -> tuple[Tree, bool, Sequence[str], _Sim, list[tuple[Move, _Sim]]]:
    """(the card's tree, whether it looks at the land, the figures worth moving, the turn's
    start, [(move, after)] for every adventure worth trying first)."""
    tree = CONDITIONS[state.seats[seat].hand]
    land = _looks_at_land(tree)
    figures = FIGURES if land else [f for f in FIGURES if f in figures_in(tree)]
    sim = _Sim(state.kingdom, state.positions(), state.moved, state.passed, state.pile, state.stopped_in())
    return tree, land, figures, sim, _next(sim, tree, land, figures)


def _telling(first: list[tuple[Move, _Sim]], tree: Tree, rng: random.Random) -> Move | None:
    """The storyteller's pick among the first moves that tell the card, or None."""
    done = [m for m, after in first if after.holds(tree)]
    return rng.choice(done) if done else None


def telling_move(state: State, seat: int, rng: random.Random) -> Move | None:
    """What the storyteller plays when one move tells its card now (else None), without
    weighing the rest of its plans (the expert asks only this)."""
    tree, _, _, _, first = _first_moves(state, seat)
    return _telling(first, tree, rng)


def storyteller_policy(state: State, seat: int, rng: random.Random) -> Move:
    tree, land, figures, sim, first = _first_moves(state, seat)
    done = _telling(first, tree, rng)
    if done is not None:
        return done
    # Two in a row. Without the token the second comes next turn, so the first must not need
    # this turn's movement to count then: judge the pair from a fresh turn.
    second_now = state.phase == "adventure" and state.seats[seat].magic
    if state.phase == "adventure":
        plans = []
        for move, after in first:
            if not second_now:
                after = _Sim(after.kingdom, after.pos, frozenset(), frozenset(), after.pile)
            if any(a2.holds(tree) for _, a2 in _next(after, tree, land and move["type"] != "lay_tile", figures)):
                plans.append(move)
                if len(plans) >= 3:
                    break
        # A plan that spans turns can be undone by the others (two storytellers would tug a
        # figure to and fro for ever): now and then turn the page instead.
        if plans and (second_now or rng.random() >= PATIENCE_LOSS):
            return rng.choice(plans)
    if state.phase == "second":
        return {"type": "finish"}
    chosen = _walk_or_build(state, seat, tree, sim, first, rng)
    if chosen is None and state.seats[seat].magic and state.pile:
        chosen = _invest(state, rng)  # the token is already active: build the land instead
    return chosen or {"type": "turn_page"}


def _land_score(kingdom: Kingdom) -> int:
    """How much of what land cards ask for the kingdom has: big regions and a big river."""
    return sum(1 for t in ("plain", "forest", "mountain") if kingdom.big(t)) + 2 * bool(kingdom.big_river())


def _invest(state: State, rng: random.Random) -> Move | None:
    tile, side = state.pile[0]
    now = _land_score(state.kingdom)
    scored = [(_land_score(laid), at, r) for (at, r), laid in state.kingdom.laid(tile, side).items()]
    best = max((s for s, _, _ in scored), default=now)
    if best <= now:
        return None
    at, r = rng.choice([(at, r) for s, at, r in scored if s == best])
    return {"type": "lay_tile", "at": list(at), "rotation": r}


WALK = 4
PATIENCE_LOSS = 0.25


def _walk_or_build(state: State, seat: int, tree: Tree, sim: _Sim, first: list[tuple[Move, _Sim]],
                   rng: random.Random) -> Move | None:
    positions = state.positions()
    if not can_complete(state.kingdom, positions, tree):
        tiles = [(m, after) for m, after in first if m["type"] == "lay_tile"]
        helpful = [m for m, after in tiles if can_complete(after.kingdom, positions, tree)]
        if helpful:
            return rng.choice(helpful)
        if tiles:
            best = max(_land_score(after.kingdom) for _, after in tiles)
            return rng.choice([m for m, after in tiles if _land_score(after.kingdom) == best])
        return None
    found = plan(state.kingdom, positions, tree)
    if found is None:
        return None
    total, targets = found
    # Cards that need the land (big regions, rivers) are worked on while tiles remain: once the
    # pile is empty the land may never allow them again.
    urgent = len(state.seats[seat].book) <= 2 or (state.pile and _needs_land(tree))
    if total == 0 or (total > WALK and not urgent) or (not urgent and rng.random() < PATIENCE_LOSS):
        return None
    figure = min((f for f in targets if targets[f] != positions[f]),
                 key=lambda f: distances(state.kingdom, f, positions[f])[0][targets[f]])
    key = distances(state.kingdom, figure, positions[figure])[1][targets[figure]]
    return _move_dict(figure, key)


def _move_dict(figure: str, key: Any) -> Move:
    from .hexgrid import DIR_NAMES
    if figure == "dragon":
        return {"type": "move", "figure": "dragon", "direction": DIR_NAMES[key]}
    move = {"type": "move", "figure": figure, "to": list(key[0])}
    if key[1] is not None:
        move["via"] = list(key[1])
    return move


# ---- SEARCH: determinized MCTS (domain/search.py) over the storyteller -------------------------
# What a game's analysis values positions with (domain/analysis.py); it was the `expert` level
# until issue 34's lookahead (expert.py) beat it (54% of 40 games against the storyteller). Each
# node keeps the PRUNE moves that tell the acting seat's card, turn the page or finish, bring its
# card nearest (feasibility.plan) or, for cards on the land, build it best; playouts follow
# quick_policy for 2 moves, then expert_evaluate scores the seats' race (told cards, the cards'
# progress, the magic tokens). 150 iterations over 3 determinizations: about 0.5 s a decision.

PRUNE = 8          # moves kept per node, best first by _move_score
EXPERT_ITERATIONS = 150


RULES = SearchRules(legal_moves=legal_moves, decide=decide, evolve=evolve, actors=actors, result=result,
                    determinize=determinize)


def _progress(state: State, i: int) -> float:
    """How near seat i's card in hand is to being told, in [0, 1/2]: 1/(2 + moves to get the
    figures in place before the last turn), 0 when this kingdom cannot complete it."""
    hand = state.seats[i].hand
    if hand is None:
        return 0.0
    found = plan(state.kingdom, state.positions(), CONDITIONS[hand])
    return 0.0 if found is None else 1.0 / (2.0 + found[0])


def _worth(state: State, i: int) -> float:
    """Told cards, plus the card in hand's progress (worth more to the seat about to act: the
    others may move the figures away first) and the magic token."""
    s = state.seats[i]
    if s.out:
        return -100.0
    near = 1.2 if i == state.current and state.phase in ("adventure", "second") else 0.7
    return len(s.told) + near * _progress(state, i) + 0.15 * s.magic


def expert_evaluate(state: State, seat: int) -> float:
    """The seat's lead in told cards (its card's progress and its token counting a little)
    over its best rival, squashed into (0, 1)."""
    mine = _worth(state, seat)
    rivals = [i for i in range(state.n) if i != seat and not state.seats[i].out]
    if not rivals:  # alone: the win is near, unless this seat goes out too; finish the book
        me = state.seats[seat]
        done = (len(me.told) + _progress(state, seat)) / (len(me.told) + len(me.book) + 1)
        return 0.0 if me.out else 0.9 + 0.1 * done
    best = max(_worth(state, i) for i in rivals)
    return 1.0 / (1.0 + math.exp(-0.9 * (mine - best)))


def _move_score(state: State, tree: Tree, land: bool, figures: Collection[str], move: Move) -> float:
    kind = move["type"]
    if kind in ("turn_page", "finish"):
        return 60.0
    after = _context_after(state, land, figures, move)
    if after is None:
        return 0.0 if kind == "lay_tile" else 1.0
    if holds(tree, after):
        return 100.0
    if kind == "lay_tile":
        return 20.0 + _land_score(after.kingdom)
    found = plan(state.kingdom, after.pos, tree)
    return 10.0 if found is None else 50.0 - found[0]


def move_tells(state: State, tree: Tree, land: bool, figures: Collection[str], move: Move) -> bool:
    """Does `move` make the card hold at once (_move_score's 100)? Without weighing the moves
    that do not, which costs a plan search each (the expert asks this of every legal move)."""
    after = _context_after(state, land, figures, move) if move["type"] in ("move", "lay_tile") else None
    return after is not None and holds(tree, after)


def _context_after(state: State, land: bool, figures: Collection[str], move: Move) -> Context | None:
    """What the card is judged on after a tile or figure move that may bear on it, else None
    (a tile when the card ignores the land, a figure the card does not name)."""
    if move["type"] == "lay_tile":
        if not land:
            return None
        tile, side = state.pile[0]
        at, rotation = tuple(move["at"]), move["rotation"]
        kingdom = state.kingdom.laid(tile, side).get((at, rotation)) or state.kingdom.lay(tile, side, at, rotation)
        return Context(kingdom, state.positions(), state.moved, state.passed, state.stopped_in())
    figure = move["figure"]
    if figure not in figures:
        return None
    to, _, passed = move_table(state.kingdom, figure, state.position(figure))[_move_key(move)]
    return Context(state.kingdom, {**state.positions(), figure: to}, state.moved | {figure},
                   state.passed | {figure} if passed else state.passed, {**state.stopped_in(), figure: state.kingdom})


def _move_key(move: Move) -> Any:
    from .hexgrid import DIR_NAMES
    if move["figure"] == "dragon":
        return DIR_NAMES.index(move["direction"])
    return (tuple(move["to"]), tuple(move["via"]) if "via" in move else None)


def expert_prune(state: State, actor: int, moves: list[Move]) -> list[Move]:  # a seat: the search prunes no system move
    """The PRUNE most promising moves: those that tell the card, then turning the page, then
    the figure moves that bring the card nearest, then tiles (for cards on the land)."""
    hand = state.seats[actor].hand
    if hand is None:
        return moves
    tree = CONDITIONS[hand]
    land = _looks_at_land(tree)
    figures = figures_in(tree)
    scored = sorted(range(len(moves)), key=lambda i: (-_move_score(state, tree, land, figures, moves[i]), i))
    return [moves[i] for i in sorted(scored[:PRUNE])]


def quick_policy(state: State, seat: int, rng: random.Random) -> Move:
    """The expert's rollout, a fast storyteller: tell the card with one move of a figure it
    names when one does; else (now and then) walk a figure a step towards the card's plan;
    else finish or turn the page. No tiles: laying one is what makes the storyteller slow."""
    hand = state.seats[seat].hand
    if hand is None:
        return legal_moves(state, seat)[0]
    tree = CONDITIONS[hand]
    positions, stopped = state.positions(), state.stopped_in()
    done = []
    for figure in sorted(figures_in(tree)):
        for key, (to, _, passed) in move_table(state.kingdom, figure, positions[figure]).items():
            pos = {**positions, figure: to}
            if holds(tree, Context(state.kingdom, pos, state.moved | {figure},
                                   state.passed | {figure} if passed else state.passed,
                                   {**stopped, figure: state.kingdom})):
                done.append(_move_dict(figure, key))
    if done:
        return done[rng.randrange(len(done))]
    if state.phase == "second":
        return {"type": "finish"}
    found = plan(state.kingdom, positions, tree) if rng.random() < 0.5 else None
    if found is not None and found[0] > 0:
        targets = found[1]
        figure = next(f for f in sorted(targets) if targets[f] != positions[f])
        key = distances(state.kingdom, figure, positions[figure])[1][targets[figure]]
        return _move_dict(figure, key)
    return {"type": "turn_page"}


EXPERT = Searcher(RULES, lambda state: state.n, SearchSpec(
    iterations=EXPERT_ITERATIONS, rollout=quick_policy, evaluate=expert_evaluate,
    depth=2, determinizations=3, exploration=0.5, prune=expert_prune))


def _tells(state: State, seat: int, move: Move) -> bool:
    if move["type"] not in ("move", "lay_tile"):
        return False
    told = len(state.seats[seat].told)
    after = state
    for event in decide(state, seat, move, random.Random(0)):
        after = evolve(after, event)
    return len(after.seats[seat].told) > told


SEARCH = EXPERT  # what a game's analysis values its positions with (domain/analysis.py)
