"""SetUp (Jacob Berg, Bezzerwizzer 2023): make sets of suit-and-number tiles on a 12-square board.

Rules: `shared/rules/setup.md`. Components (50 tiles, 12 squares, their links) live in
`components.json`, checked at import (`data.py`).

Moves (see `api/openapi/setup.yaml`):
- `{"type": "play", "place": {"C1": "su-heart-7", "S2": "su-heart-8"}}`: 1-8 tiles from the
  rack and/or market, each onto a different square (the object's keys: square ids).
- `{"type": "swap", "tiles": ["su-club-2", ...]}`: 1-4 rack tiles (any order is accepted;
  legal_moves lists them in the components file's order).
- `{"type": "pass"}`: only when neither is possible (never with the standard components).
For the API (pure, cheap): `rules.preview(state, seat, move)` is a dry run of a play (points,
bonus, or the rejection code and sentence); `moves.summary(state, seat)` gives the number of
plays and swaps and, per tile, the squares where some legal play puts it. Legal-move lists are
usually ~100 moves but reach ~15,000 (five tiles of one number in rack + market): page them.

Decisions where the spec is silent (or only implies):
- The bag has no order: each draw is picked at random by `decide` and written into a `drew`
  event, so no bag order exists to leak. The swapper alone knows which tiles it put back.
- A swap draws first, then puts the swapped tiles back (as the spec orders it), so a swap
  never draws back its own tiles. If the bag and the covered tiles together cannot supply
  enough tiles, the swap still returns all the chosen tiles (the rack stays short).
- Refills happen after the set is scored and only if nobody reached the finish; the tiles this
  play covered already count as covered for an empty-bag refill in the same turn.
- A bonus point goes to the owner of a bonus square for each of its tiles in the scoring sets
  when the owner is not the player (the player scores those tiles once, as set tiles); bonus
  squares of absent sides have no owner. In the team game a partner gets bonus points too.
- Finish ties (several reach it on one turn): highest score, then the player whose turn it
  was; if the tied top scorers are all other players, they share the win.
- Team game: seats 0 and 1 (south, west) against 2 and 3 (north, east); turns 0, 2, 1, 3.
  "Tied between the teams" means both teams have a player on that (lowest / highest) score.
- Tiles repeat no suit-and-number pair (checked at load), so "same number" implies
  "different suits" and every set is unambiguous.
- Covered tiles are shown in views (everyone saw them go down face up). The `bag_refilled`
  event carries only their count: evolve knows which they are, and naming them in an event
  could name a tile the same turn then deals into a secret rack.
- Seat 0 starts. Unknown or malformed moves are rejected (extra fields too).
"""
from __future__ import annotations

from domain.contract import GameDef, Option

from .determinize import determinize
from .evolve import evolve
from .levels import BOTS
from .moves import legal_moves, legal_page, summary
from .rules import check_options, decide, preview, setup
from .views import actors, as_stored, redact, result, secrets, view
from .words import WORDS

GAME = GameDef(
    preview=preview,
    summary=summary,
    name="setup",
    title="SetUp",
    min_seats=2,
    max_seats=4,
    rules_version="setup-1",
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
    options=(Option("teams", "boolean", False,
                    "2-against-2 team game (needs 4 seats): seats 0+1 against 2+3, turns 0, 2, 1, 3."),),
    check_options=check_options,
    words=WORDS,
    test_configs=((2, {}), (3, {}), (4, {}), (4, {"teams": True})),
    max_events=5000,
    notes="Legal moves list every legal play and swap: about 130 per turn on average, 600 at "
          "the 99th percentile, up to ~15,000 (five tiles of one number in rack and market), so "
          "page them. Tile ids look like su-heart-7; squares C1-C4 common, S/W/N/E 1-2 bonus.",
    move_types={
        "play": "Make a set: place 1-8 tiles from your rack and/or the market, one per square.",
        "swap": "Swap 1-4 rack tiles with the bag.",
        "pass": "Only when you can neither make a set nor swap.",
    },
)
