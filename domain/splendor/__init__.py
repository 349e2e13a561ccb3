"""Splendor (Marc André, Space Cowboys 2014) for 2-4 seats: the rules in shared/rules/splendor.md.

Rule decisions where the spec is silent or leaves a choice:
- Fewer than 3 gem colours in the supply: take_gems names exactly one gem of each colour left
  (1 or 2 gems, not a subset); option `strict_take_three: true` forbids it. With 3 or more
  colours left, take_gems is always exactly 3 colours.
- Moves have one canonical shape (listed by legal_moves): take_gems colours in the order white,
  blue, green, red, black; buy names the exact payment (tokens paid, gold included, non-zero
  entries only), one move per distinct way to spend gold (an amount of gold alone would not
  say which coloured tokens the player keeps); return_tokens likewise. A move in another shape
  (other order, zero entries, extra keys) is rejected with `invalid_move`.
- The end of a turn runs: token limit (phase return_tokens), then nobles (one visits by itself,
  several -> phase choose_noble), then the turn passes. A noble that qualified but was not
  chosen may visit at the end of a later turn (one per turn), also after a pass.
- Reaching 15 points is checked at the end of every turn; seat 0 starts, so the round is over
  when seat 0 would play next. Then SYSTEM sends `score_game`, whose event carries the result.
- `pass` is legal only when no other action is possible. If every seat passes in a row (a full
  round of passes), nothing can ever change again: the game goes to scoring (result reason
  "blocked"; scored like any other end).
- Tie after points and fewest bought cards: a shared win (all tied seats are winners).
- The card that refills the market is named in the event (it is face up at once); a blind
  reserve names its card only to its owner (others see its level).
"""
from ..contract import GameDef, InvalidOptions, Option
from .bots import BOTS
from .decide import decide
from .determinize import determinize
from .moves import legal_moves
from .rules import evolve, result, setup
from .views import actors, as_stored, redact, secrets, view
from .words import WORDS

OPTIONS = (
    Option("strict_take_three", "boolean", False,
           "Forbid taking 1 or 2 gems of different colours when fewer than 3 colours are left."),
)


def check_options(options: dict, n_seats: int) -> None:
    if not 2 <= n_seats <= 4:
        raise InvalidOptions("Splendor is played by 2 to 4 seats.")
    unknown = set(options) - {o.name for o in OPTIONS}
    if unknown:
        raise InvalidOptions("Splendor has no option {value}.", args={"value": repr(sorted(unknown)[0])})
    if not isinstance(options.get("strict_take_three", False), bool):
        raise InvalidOptions("strict_take_three must be true or false.")


GAME = GameDef(
    name="splendor",
    title="Splendor",
    min_seats=2,
    max_seats=4,
    rules_version="1",
    setup=setup,
    decide=decide,
    evolve=evolve,
    legal_moves=legal_moves,
    actors=actors,
    view=view,
    redact=redact,
    as_stored=as_stored,
    result=result,
    secrets=secrets,
    bots=BOTS,
    determinize=determinize,
    options=OPTIONS,
    check_options=check_options,
    test_configs=((2, {}), (3, {}), (4, {}), (2, {"strict_take_three": True})),
    max_events=5000,
    words=WORDS,
    notes="Complete base game: 90 cards, 10 nobles, 2-4 seats.",
    move_types={
        "take_gems": "Take 3 gems of different colours (or one of each colour left when fewer than 3 are).",
        "take_two": "Take 2 gems of one colour that has at least 4 in the supply.",
        "reserve": "Reserve a face-up card and take 1 gold if any is left.",
        "reserve_blind": "Reserve the top card of a level's deck (only you see it) and take 1 gold.",
        "buy": "Buy a face-up card or one of your reserved cards with the payment given.",
        "return_tokens": "Return tokens until you hold 10.",
        "choose_noble": "Choose which of several qualifying nobles visits you.",
        "pass": "Pass: only when no other action is possible.",
        "score_game": "System: score the finished game.",
    },
)
