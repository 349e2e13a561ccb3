"""Rules fairy-tile-2: "Laying a tile never satisfies *arrive* or *meet*" (shared/rules,
fairy-tile.md; the seed: "'왕국 타일 깔기'로는 '도착하다'나 '만나다'라는 조건을 충족할 수 없어요").
An arrive's place is judged where the figure stopped, in the kingdom as it was after the moving
adventure: with an active magic token, moving a figure next to a small region and then laying a
tile that makes the region big tells no "arrive big ..." card. Under fairy-tile-1 it did; those
histories replay as they were played (a telling is its `card_told` event: evolve never judges a
card again)."""
import random

import pytest

from domain.fairy_tile import GAME
from domain.fairy_tile.conditions import matches
from domain.fairy_tile.data import CARDS, CONDITIONS
from domain.fairy_tile.decide import card_holds
from domain.play import fold

from .helpers import apply, kingdom, make

R = random.Random(0)


def _arrive_big(tree):
    """The (figure, place) of the first "arrive big ..." in a condition, else None."""
    if tree[0] in ("and", "or"):
        return next(filter(None, (_arrive_big(t) for t in tree[1])), None)
    if tree[0] == "arrive" and tree[2][0] in ("big", "big_river"):
        return tree[1], tree[2]
    return None


ARRIVE_BIG = sorted((cid for cid, tree in CONDITIONS.items() if _arrive_big(tree)), key=lambda c: CARDS[c]["number"])

# A tile of each terrain with no river on that face (so it lies anywhere along a riverless
# kingdom), and one whose river runs west-east through h0 and h1 (ft-tile-1 a).
TILE_OF = {"mountain": ("ft-tile-2", "a"), "plain": ("ft-tile-7", "b"), "forest": ("ft-tile-10", "b")}
RIVER_TILE = ("ft-tile-1", "a")


def board(figure, place):
    """A row (-1,0) (0,0) (1,0) (2,0) and a castle at (2,1) below its end. The figure's move
    (the Princess from (0,0), the Knight from (-1,0) via (0,0), the Dragon flying east from
    (-1,0)) stops on `target`, a hex of a 2-hex region of the place's terrain (or of a 4-hex
    river course): the place does not hold there until a tile is laid beside it.
    -> (kingdom, figures, move, target, pile)."""
    if place[0] == "big_river":  # a river along the whole row: 4 hexes, one short of big
        cells = {(q, 0): ("forest", [0, 3]) for q in range(-1, 3)}
        tile = RIVER_TILE
    else:
        terrain = place[1]
        cells = {(-1, 0): "c", (0, 0): "c", (1, 0): terrain, (2, 0): terrain}
        tile = TILE_OF[terrain]
    cells[(2, 1)] = "c"
    move = {"princess": {"type": "move", "figure": "princess", "to": [1, 0]},
            "knight": {"type": "move", "figure": "knight", "to": [1, 0], "via": [0, 0]},
            "dragon": {"type": "move", "figure": "dragon", "direction": "e"}}[figure]
    target = (2, 0) if figure == "dragon" else (1, 0)
    # princess, knight, dragon
    return kingdom(cells), ((0, 0), (-1, 0), (-1, 0)), move, target, [tile]


def arranged(card_id):
    """The state before the move (seat 0 to play, magic token active, the card in hand), the
    figure's move and a legal lay after it that makes the card's place hold at the target."""
    figure, place = _arrive_big(CONDITIONS[card_id])
    k, figures, move, target, pile = board(figure, place)
    state = make(k, *figures, hands=[card_id, card_id], magic={0}, pile=pile)
    after_move = apply(state, GAME.decide(state, 0, move, R))
    assert after_move.phase == "second" and after_move.position(figure) == target
    assert not card_holds(after_move, 0), "the place must not hold where the figure stopped"
    tile, side = pile[0]
    lays = [{"type": "lay_tile", "at": list(at), "rotation": rotation}
            for (at, rotation), laid in after_move.kingdom.laid(tile, side).items() if matches(laid, target, place)]
    assert lays, "a tile laid after the move can make the place hold"
    assert lays[0] in GAME.legal_moves(after_move, 0)
    return state, move, lays[0]


def test_every_arrive_big_card_is_covered():
    assert [CARDS[c]["number"] for c in ARRIVE_BIG] == [2, 3, 13, 17, 18, 20]
    assert GAME.rules_version == "fairy-tile-2"


@pytest.mark.parametrize("card_id", ARRIVE_BIG, ids=lambda c: f"{c}:{CARDS[c]['condition']}")
def test_moving_then_laying_a_tile_never_tells_an_arrive_big_card(card_id):
    state, move, lay = arranged(card_id)
    after_move = apply(state, GAME.decide(state, 0, move, R))
    events = GAME.decide(after_move, 0, lay, R)
    assert [e["type"] for e in events] == ["magic_used", "tile_laid", "turn_ended"]
    done = apply(after_move, events)
    assert done.seats[0].told == () and done.seats[0].hand == card_id


@pytest.mark.parametrize("card_id", ARRIVE_BIG, ids=lambda c: f"{c}:{CARDS[c]['condition']}")
def test_laying_the_tile_first_then_arriving_tells_it(card_id):
    # The same tile and the same move in the other order: the figure stops on a big place.
    state, move, lay = arranged(card_id)
    after_lay = apply(state, GAME.decide(state, 0, lay, R))
    assert after_lay.phase == "second"
    events = GAME.decide(after_lay, 0, move, R)
    assert [e["type"] for e in events][:3] == ["magic_used", "figure_moved", "card_told"]
    assert apply(after_lay, events).seats[0].told == (card_id,)


def test_the_bots_judge_a_tile_after_a_move_as_the_rules_do():
    # The storyteller, after moving, does not lay the tile for an arrive it would not tell.
    from domain.fairy_tile.bots import _context_after, _looks_at_land
    from domain.fairy_tile.conditions import figures_in, holds
    for card_id in ARRIVE_BIG:
        state, move, lay = arranged(card_id)
        after_move = apply(state, GAME.decide(state, 0, move, R))
        tree = CONDITIONS[card_id]
        ctx = _context_after(after_move, _looks_at_land(tree), figures_in(tree), lay)
        assert ctx is not None and not holds(tree, ctx), card_id


def test_a_fairy_tile_1_history_that_told_a_card_by_a_later_tile_replays_as_played():
    # The events fairy-tile-1's decide made for the move-then-lay of card 2 (the Dragon arrives
    # on a big mountain): the card was told. Folded by this code, the card stays told.
    card_id = ARRIVE_BIG[0]
    state, move, lay = arranged(card_id)
    moved = GAME.decide(state, 0, move, R)
    laid = GAME.decide(apply(state, moved), 0, lay, R)
    assert "card_told" not in [e["type"] for e in laid]  # what fairy-tile-2 decides
    as_played = [*moved, laid[0], laid[1],
                 {"type": "card_told", "seat": 0, "card": card_id, "drawn": state.seats[0].book[0]},
                 {"type": "turn_ended", "seat": 0, "next": 1}]
    replayed = fold(GAME, as_played, state)
    assert replayed.seats[0].told == (card_id,) and replayed.seats[0].hand == state.seats[0].book[0]
    assert replayed.current == 1 and replayed.stopped == () and replayed.moved == frozenset()


def test_a_meets_place_is_judged_where_the_later_figure_stopped():
    # No card meets on a big place yet; the language allows it, and a tile laid after the
    # meeting does not make it hold either.
    from domain.fairy_tile.conditions import Context, holds, parse
    small = kingdom({(0, 0): "f", (1, 0): "f", (2, 0): "c"})
    big = kingdom({(0, 0): "f", (1, 0): "f", (2, 0): "c", (0, 1): "f"})
    tree = parse("princess meet knight on big forest")
    pos = {"princess": (0, 0), "knight": (0, 0), "dragon": (2, 0)}
    moved = frozenset({"princess"})
    assert holds(tree, Context(big, pos, moved, frozenset()))  # the princess stopped after the tile
    assert not holds(tree, Context(big, pos, moved, frozenset(), {"princess": small}))  # before it
    both = frozenset({"princess", "knight"})
    assert holds(tree, Context(big, pos, both, frozenset(), {"princess": small, "knight": big}))
