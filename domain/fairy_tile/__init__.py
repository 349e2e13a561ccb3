"""Fairy Tile (Matthew Dunstan, Brett J. Gilbert; IELLO 2018) for 2-4 players.

Rules: shared/rules/fairy-tile.md. Component data (tiles.json, cards.json) is the server's own,
in the published game's format (the printed faces and most card texts are not public).

Decisions where the rules are silent:
- Tiles are triangles of 3 hexes. A placement is (`at`, `rotation`): the tile's hex h0 goes on
  `at` and the tile turns by `rotation` x 60 degrees clockwise. The pile's top tile shows its
  face (as the top of a real stack of double-sided tiles does): it and its side are public; the
  order and sides of the rest are secret. A tile is laid with the side that came up.
- Placement tiers: 2+ touching edges in one run with rivers continued; else 1+ touching edges
  with rivers continued; else anywhere touching. A river edge that faces a gap is allowed.
- The Princess's move must end on another hex than where it began; a jump needs her step (a
  jump alone is no move). Her move names `via`, the castle stepped onto before the jump or
  jumped to before the step, as the Knight's names `via`, the hex he passes through: the route
  matters for "pass a castle". The Dragon passes every hex he flies over.
- "Pass a castle": the figure entered a castle hex this turn (stepping off the castle it started
  on does not count). "See N T": N hexes of T on one line of sight, the viewer's hex included.
  "Arrive": moved by this player this turn and standing on it now, its place judged in the
  kingdom as it was when the figure stopped (rules fairy-tile-2: "laying a tile never satisfies
  arrive or meet", so a tile laid after the move cannot make the hex a big region or a big river;
  a "meet ... on" place likewise, where the later of the moved figures stopped). Under
  fairy-tile-1 the place was judged after both adventures; histories of either replay as played
  (a card is told by its `card_told` event, never judged again by evolve).
- Telling is automatic: after the last adventure of a turn the card is told if it holds. With an
  active token, after the first adventure the player chooses a second adventure or `finish`.
- The start tiles' back faces are shipped but not used (the start layout uses their emblem side).
- A player is out as soon as their last card is in hand, the pile is empty and no reachable
  positions of the figures and no final turn (up to two adventures) can complete it; it is
  checked at the end of every turn. Out players are skipped.
- A player left alone (the others out) plays on until they finish their book or are out too.
- So that every game ends, the server adds a round limit (option `round_limit`, default 100,
  at most 200 rounds): when it is reached the players still in with the most told cards share
  the win. Real games end long before (storyteller against random: about 50 turns each).
- Bots: `random` (uniform over kinds of move, then moves) and `storyteller` (bots.py), which
  completes its card in one or two adventures when it can, else walks the figures towards the
  nearest way to complete it (feasibility.plan), builds the land, or turns the page; `expert`
  (expert.py), the strongest and last, which plays each move to the end of its turn and counts
  what the next seat could tell then (over every card it may hold) and how near its own card is.
"""
from __future__ import annotations

from domain.contract import GameDef, InvalidOptions, Option

from .decide import decide
from .determinize import determinize
from .levels import BOTS
from .moves import actors, legal_moves, summary
from .rules import evolve, setup
from .views import as_stored, redact, result, secrets, view
from .words import WORDS

MAX_ROUNDS = 200
# A turn makes at most 4 events of its own (magic_used, an adventure, card_told, turn_ended) plus
# one player_out per seat: the bound every game stays within.
MAX_EVENTS = 1 + MAX_ROUNDS * 4 * (4 + 4)

OPTIONS = (
    Option("round_limit", "integer", 100,
           "Rounds after which the game stops (a server safeguard so games always end): the players "
           "still in with the most told cards share the win.", minimum=10, maximum=MAX_ROUNDS),
)


def check_options(options: dict, n_seats: int) -> None:
    limit = options.get("round_limit")
    if not isinstance(limit, int) or isinstance(limit, bool) or not 10 <= limit <= MAX_ROUNDS:
        raise InvalidOptions("round_limit must be an integer from 10 to {maximum}.", args={"maximum": MAX_ROUNDS})
    if not 2 <= n_seats <= 4:
        raise InvalidOptions("Fairy Tile is for 2 to 4 players.")


GAME = GameDef(
    name="fairy-tile",
    title="Fairy Tile",
    min_seats=2,
    max_seats=4,
    rules_version="fairy-tile-2",
    setup=setup,
    decide=decide,
    evolve=evolve,
    legal_moves=legal_moves,
    summary=summary,
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
    test_configs=((2, {}), (3, {}), (4, {})),
    max_events=MAX_EVENTS,
    words=WORDS,
    notes="Tiles and 36 story cards are the server's own data (the printed ones are not public); "
          "the attested cards of the published deck are among them.",
    move_types={
        "move": "Move a figure: the Princess or the Knight to a hex (with via), the Dragon in a direction.",
        "lay_tile": "Lay the pile's top tile at a place with a rotation.",
        "turn_page": "Put your card under your book, draw the next, activate your magic token.",
        "finish": "After one adventure with an active token: end the adventure and tell if you can.",
    },
)
