"""The combo display: six combos, paying 1 coin on each combo passed over, taking the coins
lying on the chosen one, refilling from the piles, starting tokens = banner + badge."""
import random

from domain.play import fold
from domain.smallworld import GAME, abilities
from domain.smallworld.state import CONQUER, PICK, Region

from .helpers import make_state, play, rejected

DISPLAY = (("orcs", "farmer", 0), ("dwarves", "ranger", 0), ("trolls", "mining", 2),
           ("naga", "sailing", 0), ("kobolds", "fishing", 0), ("worgen", "enraged", 1))


def picking(coins=5):
    return make_state(step=PICK, display=DISPLAY, players={0: {"coins": coins}},
                      race_pile=("blood_elves", "night_elves"), power_pile=("explorer", "herbalist"))


def test_setup_shows_six_combos_of_implemented_races_and_powers():
    for seed in range(10):
        state = fold(GAME, GAME.setup({}, 3, random.Random(seed)))
        assert len(state.display) == 6
        assert {r for r, _, _ in state.display} <= set(abilities.RACES)
        assert {p for _, p, _ in state.display} <= set(abilities.POWERS)
        assert len({r for r, _, _ in state.display}) == 6
        assert all(c == 0 for _, _, c in state.display)
        assert state.turn.step == PICK and all(p.coins == 5 for p in state.players)


def test_top_combo_is_free_and_gives_banner_plus_badge_tokens():
    state, events = play(picking(), 0, {"type": "pick", "index": 0})
    p = state.players[0]
    assert (p.race, p.power, p.hand, p.coins) == ("orcs", "farmer", 6 + 4, 5)
    assert state.turn.step == CONQUER
    assert events[0]["paid"] == 0


def test_a_lower_combo_costs_one_coin_on_each_combo_above_and_takes_its_coins():
    state, events = play(picking(), 0, {"type": "pick", "index": 2})
    p = state.players[0]
    assert (p.race, p.power, p.hand) == ("trolls", "mining", 6 + 4)
    assert p.coins == 5 - 2 + 2  # paid 2, took the 2 lying on it
    assert [c for _, _, c in state.display[:2]] == [1, 1]
    assert events[0]["took"] == 2


def test_the_display_slides_up_and_refills_from_the_piles():
    state, events = play(picking(), 0, {"type": "pick", "index": 1})
    assert events[1]["type"] == "display_refilled" and len(events[1]["combos"]) == 1
    drawn = events[1]["combos"][0]
    assert drawn["race"] in ("blood_elves", "night_elves") and drawn["power"] in ("explorer", "herbalist")
    assert [r for r, _, _ in state.display] == ["orcs", "trolls", "naga", "kobolds", "worgen", drawn["race"]]
    assert state.display[-1][2] == 0
    assert drawn["race"] not in state.race_pile and drawn["power"] not in state.power_pile


def test_the_refill_is_in_the_event_so_replay_draws_nothing():
    base = picking()
    _, events = play(base, 0, {"type": "pick", "index": 1}, seed=1)
    event = dict(events[1], combos=[{"race": "night_elves", "power": "herbalist"}])
    after = GAME.evolve(GAME.evolve(base, events[0]), event)
    assert after.display[-1] == ("night_elves", "herbalist", 0) and after.race_pile == ("blood_elves",)


def test_a_banner_back_under_the_pile_refills_a_short_display():
    from .helpers import mine
    state = make_state(step="start", display=(), power_pile=("farmer",),
                       regions={"T-1": mine(0, "orcs", 2), "T-2": Region(0, "kobolds", 1, True)},
                       players={0: {"race": "orcs", "power": "ranger", "declined": "kobolds"}})
    state, events = play(state, 0, {"type": "decline"})
    assert events[-1]["type"] == "display_refilled"
    # the old declined Kobolds' banner came back: one combo with one of the two badges
    assert len(state.display) == 1 and state.display[0][0] == "kobolds"
    assert state.display[0][1] in ("farmer", "ranger") and not state.race_pile


def test_a_combo_beyond_ones_coins_cannot_be_picked():
    state = picking(coins=2)
    assert rejected(state, 0, {"type": "pick", "index": 3}) == "cannot_afford"
    assert [m["index"] for m in GAME.legal_moves(state, 0)] == [0, 1, 2]


def test_starting_tokens_are_capped_by_the_box():
    state = picking()
    # 8 orc tokens already somewhere (not possible in play, but the cap is general)
    state = state.set_region(0, Region(1, "orcs", 8))
    state, _ = play(state, 0, {"type": "pick", "index": 0})
    assert state.players[0].hand == 11 - 8


def test_an_empty_display_lets_the_seat_skip_its_pick():
    state = make_state(step=PICK, display=())
    assert GAME.legal_moves(state, 0) == [{"type": "skip_pick"}]
    state, _ = play(state, 0, {"type": "skip_pick"})
    assert state.turn.step == "score"
    assert rejected(picking(), 0, {"type": "skip_pick"}) == "illegal_move"


def test_a_returned_banner_goes_under_the_pile_and_is_drawn_last():
    state = picking().with_(returned=("tauren",))
    for seed in range(10):
        _, events = play(state, 0, {"type": "pick", "index": 0}, seed=seed)
        assert events[-1]["combos"][0]["race"] in ("blood_elves", "night_elves")  # the unseen ones first
    empty = picking().with_(race_pile=(), returned=("tauren", "gnomes"))
    after, events = play(empty, 0, {"type": "pick", "index": 0})
    assert events[-1]["combos"] == [{"race": "tauren", "power": events[-1]["combos"][0]["power"]}]
    assert after.returned == ("gnomes",)


def test_with_the_whole_box_5_seats_never_find_the_display_empty():
    for seed in range(3):
        state = fold(GAME, GAME.setup({}, 5, random.Random(seed)))
        rng = random.Random(seed)
        while GAME.actors(state):
            actor = GAME.actors(state)[0]
            moves = GAME.legal_moves(state, actor)
            assert moves != [{"type": "skip_pick"}]
            move = moves[0] if actor == "system" else GAME.bots["greedy"](state, actor, rng)
            for e in GAME.decide(state, actor, move, rng):
                state = GAME.evolve(state, e)
