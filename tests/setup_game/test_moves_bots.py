"""legal_moves lists every legal play and swap (checked against brute force), the dry run,
and the bots."""
import itertools
import random

from domain.contract import MoveRejected
from domain.play import fold
from domain.setup_game import GAME
from domain.setup_game.bots import greedy_policy
from domain.setup_game.data import SQUARE_INDEX, TILE_INDEX
from domain.setup_game.moves import placements, summary
from domain.setup_game.plays import check_play
from domain.setup_game.rules import preview
from domain.setup_game.state import playable_squares

from .helpers import play, start, tid

QUIET = {"C1": "h1", "C2": "s3", "C3": "c6", "C4": "h8"}


def _brute(state, seat, max_tiles):
    avail = state.racks[seat] + state.market
    out = set()
    for k in range(1, max_tiles + 1):
        for tiles in itertools.combinations(avail, k):
            for squares in itertools.permutations(playable_squares(state.n, seat), k):
                pairs = sorted(zip(squares, tiles))
                try:
                    check_play(state, seat, pairs)
                except MoveRejected:
                    continue
                out.add(tuple(pairs))
    return out


def _random_states(count, seed):
    rng = random.Random(seed)
    for i in range(count):
        n = (2, 3, 4)[i % 3]
        state = fold(GAME, GAME.setup({"teams": False}, n, rng))
        for _ in range(rng.randrange(0, 12)):
            seat = state.turn
            for event in GAME.decide(state, seat, rng.choice(GAME.legal_moves(state, seat)), rng):
                state = GAME.evolve(state, event)
            if state.over:
                break
        if not state.over:
            yield state


def test_enumerator_matches_brute_force_up_to_two_tiles():
    for state in _random_states(9, seed=4):
        fast = placements(state, state.turn)
        assert len(set(fast)) == len(fast), "a play is listed twice"
        assert {p for p in fast if len(p) <= 2} == _brute(state, state.turn, 2)


def test_enumerator_matches_brute_force_on_long_runs_and_number_sets():
    # Rack and market full of hearts 2-6 and of 9s: long runs and big number sets are possible
    # (4 seats, so seat 0 has 6 squares and brute force up to 4 tiles stays quick).
    state = start(n=4, board={"C1": "h1", "C2": "s9", "C3": "c6", "C4": "d9"},
                  racks=[["h2", "h3", "h4", "c9"], [], [], []], market=["h5", "h6", "st9", "h9"])
    fast = set(placements(state, 0))
    assert fast == _brute(state, 0, 4) | {p for p in fast if len(p) > 4}
    assert any(len(p) == 5 for p in fast)  # hearts 2-6 snaking from the heart 1 on C1
    for p in [p for p in fast if len(p) > 4][:50]:
        check_play(state, 0, list(p))


def test_every_listed_move_is_accepted_and_swaps_cover_every_subset():
    state = start(board={**QUIET, "N1": "d10"}, racks=[["st10", "h2", "c5", "d9"], []],
                  market=["c10", "s5"])
    moves = GAME.legal_moves(state, 0)
    swaps = [m for m in moves if m["type"] == "swap"]
    assert len(swaps) == 15
    for move in moves:
        assert GAME.decide(state, 0, move, random.Random(0))
    assert {"type": "pass"} not in moves


def test_pass_only_when_nothing_else_is_possible():
    state = start(board={"C1": "h1", "C2": "s3", "C3": "c6", "C4": "h8"}, racks=[[], []],
                  market=["d5"])
    assert GAME.legal_moves(state, 0) == [{"type": "pass"}]
    events = GAME.decide(state, 0, {"type": "pass"}, random.Random(0))
    assert [e["type"] for e in events] == ["passed", "next_turn"]


def test_preview_scores_a_play_without_changing_anything():
    state = start(n=4, board={**QUIET, "N1": "d10"}, racks=[["st10"], [], [], []], market=["c10"])
    move = play({"C1": "st10", "C2": "c10"})
    assert preview(state, 0, move) == {"ok": True, "points": 3, "bonus": [0, 0, 1, 0],
                                       "set_tiles": [tid("d10"), tid("st10"), tid("c10")]}
    bad = preview(state, 0, play({"C1": "st10", "C4": "c10"}))
    assert bad["ok"] is False and bad["code"] == "not_a_set" and "club 10" in bad["message"]
    assert preview(state, 1, move)["code"] == "not_your_turn"
    assert preview(state, 0, {"type": "swap", "tiles": []})["code"] == "invalid_move"
    assert preview(state, 0, None)["code"] == "invalid_move"


def test_greedy_plays_the_highest_scoring_set():
    board = {"C1": "s1", "C2": "s2", "C3": "s3", "C4": "s4", "E1": "d1", "E2": "d2",
             "N1": "st9", "N2": "st7"}
    state = start(board=board, racks=[["h1", "h2", "h3", "h4"], []], market=["h5", "h6", "h7", "h8"])
    move = greedy_policy(state, 0, random.Random(0))
    assert move in GAME.legal_moves(state, 0)
    assert preview(state, 0, move)["points"] == max(
        preview(state, 0, m)["points"] for m in GAME.legal_moves(state, 0) if m["type"] == "play")


def test_greedy_swaps_when_no_set_can_be_made():
    state = start(board={"C1": "h1", "C2": "s3", "C3": "c6", "C4": "h8"}, racks=[["d5"], []])
    assert greedy_policy(state, 0, random.Random(0)) == {"type": "swap", "tiles": [tid("d5")]}


def test_summary_counts_plays_and_shows_where_each_tile_can_go():
    state = start(n=4, board={**QUIET, "N1": "d10"}, racks=[["st10", "h2"], [], [], []],
                  market=["c10"])
    got = summary(state, 0)
    assert got["play_count"] == len(placements(state, 0)) and got["swap_count"] == 3
    assert got["tiles"][tid("h2")] == ["C2", "C3"]  # heart 2 only next to the heart 1 on C1
    assert set(got["tiles"]) == {tid("st10"), tid("h2"), tid("c10")}
    assert summary(state, 1) == {"play_count": 0, "swap_count": 0, "tiles": {}}


def _summary_from_moves(state, seat, moves=None):
    """What `summary` said when it was read from every play made: the counts of the listed
    plays and swaps, and each tile's squares over the listed plays (in board order)."""
    moves = GAME.legal_moves(state, seat) if moves is None else moves
    if not moves:
        return {"play_count": 0, "swap_count": 0, "tiles": {}}
    plays = [m for m in moves if m["type"] == "play"]
    where: dict = {}
    for move in plays:
        for square, tile in move["place"].items():
            where.setdefault(tile, set()).add(square)
    return {"play_count": len(plays), "swap_count": sum(m["type"] == "swap" for m in moves),
            "tiles": {t: sorted(qs, key=SQUARE_INDEX.__getitem__)
                      for t, qs in sorted(where.items(), key=lambda item: TILE_INDEX[item[0]])}}


def test_summary_and_pages_from_counts_equal_what_the_whole_list_says():
    """summary and legal_page count plays (and summary marks squares) without making them all:
    the same answers as read from the whole list, on playout positions of 2, 3 and 4 seats,
    teams too (every seat: the one to play and the others), and on the hand-made one above."""
    rng = random.Random(57)
    checked = 0
    for n, teams in ((2, False), (3, False), (4, False), (4, True)):
        for _ in range(7):
            state = fold(GAME, GAME.setup({"teams": teams}, n, rng))
            while not state.over:
                for seat in range(n):
                    moves = GAME.legal_moves(state, seat)
                    assert summary(state, seat) == _summary_from_moves(state, seat, moves)
                    for limit in (1, 20, 64, max(len(moves) - 1, 0)):
                        assert GAME.legal_page(state, seat, limit) == (moves[:limit], len(moves))
                checked += 1
                seat = state.turn
                for event in GAME.decide(state, seat, rng.choice(GAME.legal_moves(state, seat)), rng):
                    state = GAME.evolve(state, event)
            assert summary(state, state.turn) == {"play_count": 0, "swap_count": 0, "tiles": {}}
    assert checked > 500
    long_runs = start(n=4, board={"C1": "h1", "C2": "s9", "C3": "c6", "C4": "d9"},
                      racks=[["h2", "h3", "h4", "c9"], [], [], []], market=["h5", "h6", "st9", "h9"])
    assert summary(long_runs, 0) == _summary_from_moves(long_runs, 0)


def test_pages_and_summaries_answer_the_state_asked_whatever_was_asked_before():
    """legal_page and summary share one grouping of the seat's plays per state (the last one
    made is kept, for GET /moves' page then summary): asked in turn about different states,
    each answer is its own state's, as read from its whole list."""
    states = list(_random_states(6, 11))
    expected = [(GAME.legal_moves(s, s.turn), _summary_from_moves(s, s.turn)) for s in states]
    for i in range(len(states)):
        for j in (i, (i + 1) % len(states), (i + 2) % len(states)):
            state, (moves, said) = states[j], expected[j]
            assert GAME.legal_page(state, state.turn, 64) == (moves[:64], len(moves))
            assert summary(state, state.turn) == said
