"""Witches (Ken Fisher & Joe Andrews, Amigo 2014): a Hearts-like trick-taking game for 3-6.

Rules: `shared/rules/witches.md`. Decisions where the rules are silent:
- Seats are clockwise in seat order: "left" is seat + 1, "right" seat - 1, "across" seat + n/2.
  Seat 0 deals the first round; the deal passes clockwise (the dealer's left leads).
- Passing is simultaneous; a pass is a set of cards: `legal_moves` lists each set once in hand
  order, `decide` accepts the same cards in any order. A seat's pass is final.
- A seat may lead any card, a wizard included; until a non-wizard card is played anything may be
  played. A wizard may always be played, even by a seat that could follow.
- The Fire Witch scores nothing herself; "all fire cards" for a spell is all 14 red cards.
- Order of operations: red points (doubled by the Fire Witch, capped at 15), + Water Witch 5 and
  Pygmy Queen (option, 10 or 5) unless the Air Witch cancels them, then the Earth Witch -5
  (never below 0 for the round).
- Earth Witch variant: with fewer than 5 points before her, the round scores raw - 5 (negative)
  and the total is floored at 0.
- Spells give exactly 20/25/30 whatever `pygmy_queen_points`; the caster's Air Witch is ignored
  and the victims' witches do nothing. The caster's choice ("others" or "self") is asked only when
  playing to a target and giving the points would bring another seat to it; with a fixed number
  of rounds points never end the game, so the spell simply hits the others.
- The caster chooses before the system scores the round (phase `spell_choice`).
- `rounds` > 0 plays that many rounds and ignores `target_score`; ties for the lowest total
  share the win. Option ranges: target_score 10-200, rounds 0-50 (so every game ends well within
  `max_events`).
- `round_scored.points` is what each total changed by (negative for the Earth Witch variant or a
  spell taken "on self"); totals never go below 0, so from 4 the variant's -5 is -4.
- The cards taken in tricks are public (every played card and who took each trick are).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from domain.contract import GameDef, InvalidOptions, Option

from .bots import BOTS
from .determinize import determinize
from .evolve import evolve
from .moves import actors, legal_moves, legal_page
from .rules import decide, setup
from .state import PASSING, State
from .views import as_stored, redact, result, secrets, view
from .words import WORDS

if TYPE_CHECKING:
    from domain.contract import Actor

OPTIONS = (
    Option("target_score", "integer", 70,
           "The game ends after a round in which a player reaches this many fire points.",
           minimum=10, maximum=200),
    Option("rounds", "integer", 0, "Play exactly this many rounds instead (0: play to target_score).",
           minimum=0, maximum=50),
    Option("pygmy_queen_points", "integer", 10, "Fire points of the Pygmy Queen (the published game: 10).",
           choices=(10, 5)),
    Option("earth_witch_variant", "boolean", False,
           "The Earth Witch's unused relief (below 5 points) comes off the running total."),
)


def check_options(options: dict, n_seats: int) -> None:
    if not (isinstance(n_seats, int) and 3 <= n_seats <= 6):
        raise InvalidOptions("Witches is played by 3 to 6 players.")
    for option in OPTIONS:
        value = options.get(option.name, option.default)
        if option.type == "boolean":
            if not isinstance(value, bool):
                raise InvalidOptions("'{option}' must be true or false.", args={"option": option.name})
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidOptions("'{option}' must be a whole number.", args={"option": option.name})
        if option.choices and value not in option.choices:
            raise InvalidOptions("'{option}' must be one of {choices}.",
                                 args={"option": option.name, "choices": ", ".join(map(str, option.choices))})
        # Every integer option declares both bounds; a lone minimum would have no range to check.
        if (option.minimum is not None and option.maximum is not None
                and not (option.minimum <= value <= option.maximum)):
            raise InvalidOptions("'{option}' must be between {minimum} and {maximum}.",
                                 args={"option": option.name, "minimum": option.minimum, "maximum": option.maximum})


def stale_ok(state_then: State, state_now: State, actor: Actor) -> bool:
    """A pass chosen on an older version still stands when all that happened since is other
    seats passing in the same passing phase (the actor's hand cannot have changed)."""
    return (
        state_then is not None and state_now is not None
        and state_then.phase == PASSING and state_now.phase == PASSING
        and state_then.round == state_now.round
        and actor in actors(state_now) and actor in actors(state_then)
    )


GAME = GameDef(
    name="witches",
    title="Witches",
    min_seats=3,
    max_seats=6,
    rules_version="1",
    setup=setup,
    decide=decide,
    evolve=evolve,
    legal_moves=legal_moves,
    legal_page=legal_page,
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
    test_configs=((3, {}), (4, {}), (5, {}), (6, {})),
    stale_ok=stale_ok,
    words=WORDS,
    max_events=20000,
    notes="Complete: passing, tricks, fire points, spells (with the caster's choice), target or fixed rounds.",
    move_types={
        "pass_cards": "Pass your cards (4/3/3/2 by seat count) to the neighbour of this round; simultaneous.",
        "play": "Play a card into the trick.",
        "choose_spell": "As a spell's caster, give its points to the others or take them off your own total.",
        "score_round": "(system) Score the round that just ended, then deal the next or end the game.",
    },
)
