"""Seeking a game, leaving the queue, and making the games of the groups paired.

A seek's wishes (game type, seats, rated or not, options, clock) name its pool: seekers pair only
with seekers of the same wishes; a seek for a range of seats (`seats` to `max_seats`) waits in
the pool of each size, and is taken by the first to pair. Within a pool, a group of `seats`
seekers pairs when the spread of their ratings (the game type's, api/ratings/; 1500 for a
newcomer) is within every member's window: WINDOW at first, widening by WIDEN_PER_S each second
it waits, up to WIDEST. Pairing runs when a seek joins (so two compatible seekers never wait for
a pass) and on each reconciler pass (so widened windows pair). The process that took a group
makes its game and tells each player (`matched` in the player's stream; `GET /matchmaking` says
it too). A seek waits at most SEEK_TTL_S; a `matched` record is kept MATCHED_KEPT_S (then
`GET /matchmaking` answers `404 not_seeking`, and the game is the player's games').

A game that cannot be made (Redis gone) forgets that group's seeks; a crash between the pairing
and the game's creation leaves them `pairing`: after PAIRING_STALE_S the reconciler's pass puts
them back in their pools, their waiting time kept (a maker that finished meanwhile wins).
Never a player in two games by one seek. Never two linked accounts in one game (`linked`: the
marks of the pool's seekers' links by the moderation's signals, api/moderation/addresses.py, read
before each pairing and honoured by its script), and in rated play never one pair of players in
more than RATED_PAIRS_PER_DAY games a UTC day (`rated_pairs_per_day`, counted in Redis as the
groups are taken): such seekers wait for others.
"""
from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Callable
from typing import Any

from api.errors import ApiError, Code, UnknownGameType, ValidationFailed
from api.games.appending import decide_and_append
from api.games.options import merged_options
from api.games.service import GameService, canonical
from api.matchmaking.seeks import Seeks
from api.platform import clocks
from api.platform import events as pe
from api.players.accounts import Player, Players
from api.ratings.ledger import Ledger, displayed
from api.social.blocks import Blocks
from domain import registry
from events.store import NewEvent

WINDOW, WIDEN_PER_S, WIDEST = 100.0, 25.0, 1000.0  # rating points
SEEK_TTL_S = 600
PAIRING_STALE_S = 60  # a group `pairing` this long lost its maker (a crash): its seekers may seek again
MATCHED_KEPT_S = 3600  # a `matched` record says where the game is this long, then is deleted


class NotSeeking(ApiError):
    status, code = 404, Code.NOT_SEEKING


class AlreadyMatched(ApiError):
    status, code = 409, Code.ALREADY_MATCHED


class Matchmaker:
    def __init__(self, seeks: Seeks, service: GameService, players: Players, ledger: Ledger,
                 told: Callable[[list[str]], object] | None = None,
                 linked: Callable[[list[str]], dict[str, list[str]]] | None = None, rated_pairs_per_day: int = 0,
                 blocks: Blocks | None = None):
        self.seeks = seeks
        self.blocks = blocks  # the one block check point (api/social/blocks.py): blocked players never paired
        self.linked = linked  # these players' links' marks (two sharing one are linked)
        self.rated_pairs_per_day = rated_pairs_per_day
        self.told = told  # after `matched` is written: the players' push notices (api/push/notify.py)
        self.service = service
        self.players = players
        self.ledger = ledger

    def seek(self, player: Player, type_: str, seats: int | None, rated: bool, options: dict[str, Any], clock: Any,
             max_seats: int | None = None) -> dict[str, Any]:
        """Joins (or moves to) the pools of these wishes (one per size from `seats` to
        `max_seats`); answers the seek, `matched` at once when a pool held the others (the
        largest game first)."""
        definition = registry.get(type_)
        if definition is None:
            raise UnknownGameType(f"This server hosts no game of type '{type_}'.")
        seats = seats or definition.min_seats
        most = max_seats if max_seats is not None else seats
        if not definition.min_seats <= seats <= most <= definition.max_seats:
            asked = f"{seats}" if most == seats else f"{seats} to {most}"
            raise ValidationFailed(f"{definition.title} is played by {definition.min_seats} to "
                                   f"{definition.max_seats} seats; {asked} were asked for.", code=Code.INVALID_SEATS)
        checked_clock = clocks.checked(definition, clock)
        pools: dict[str, dict[str, Any]] = {}
        for n in range(most, seats - 1, -1):  # the largest first: joined, a pool pairs in this order
            made = {"type": type_, "seats": n, "rated": rated, "options": merged_options(definition, options, n),
                    "clock": checked_clock}  # 400/422 before anything is written
            pools[hashlib.sha256(canonical(made).encode()).hexdigest()[:16]] = made
        wishes = {**next(iter(pools.values())), "seats": seats}
        if most != seats:
            wishes["max_seats"] = most
        current = self.seeks.seek_of(player.id)
        if current is not None and current["status"] == "pairing" and _now() - current["at"] < PAIRING_STALE_S * 1000:
            raise AlreadyMatched("Your seek is being paired: its game is being made.")
        known = self.ledger.rating(type_, f"player:{player.id}")
        rating = displayed(known.mu, known.sigma) if known is not None else 1500
        self.seeks.join(player.id, pools, wishes, rating, _now())
        for pool, made in pools.items():
            if self.pair(pool, made):
                break
        return self.status(player)

    def status(self, player: Player) -> dict[str, Any]:
        seek = self.seeks.seek_of(player.id)
        if seek is not None and seek["status"] == "matched" and _now() - seek.get("since", 0) > MATCHED_KEPT_S * 1000:
            seek = None  # past its keeping, not yet swept
        if seek is None:
            raise NotSeeking("You are not seeking a game (POST /matchmaking).")
        shown = {"status": seek["status"], "since": seek.get("since"), "rating": seek.get("rating")}
        if seek.get("wishes"):
            shown["wishes"] = seek["wishes"]
            shown["waiting"] = self.seeks.waiting(seek.get("pools") or [seek["pool"]])
        if seek["status"] == "matched":
            shown.update(game_id=seek["game_id"], seat=seek["seat"])
        return shown

    def leave(self, player: Player) -> None:
        if self.seeks.leave(player.id):
            return
        seek = self.seeks.seek_of(player.id)
        if seek is not None and seek["status"] != "searching":
            raise AlreadyMatched("Your seek was paired already: " + (
                f"your game is {seek['game_id']}." if seek.get("game_id") else "its game is being made."))
        raise NotSeeking("You are not seeking a game.")

    def pair(self, pool: str, wishes: dict[str, Any]) -> int:
        """Makes the games of every group the pool holds now; returns how many."""
        made = 0
        cap = self.rated_pairs_per_day if wishes.get("rated") else 0
        while True:
            considered: list[str] | None = None
            linked: dict[str, list[str]] = {}
            if self.linked is not None or self.blocks is not None:
                considered = self.seeks.members(pool)
                if len(considered) >= wishes["seats"]:  # (too few: nothing to read; the pass drops the stale)
                    linked = self.linked(considered) if self.linked is not None else {}
                    if self.blocks is not None:  # a block's pair shares a mark, as linked accounts do
                        for who, marks in self.blocks.marks(considered).items():
                            linked[who] = [*linked.get(who, []), *marks]
            now = _now()
            group = self.seeks.pair(
                pool, wishes["seats"], now, (WINDOW, WIDEN_PER_S, WIDEST), SEEK_TTL_S * 1000, considered, linked, cap)
            if not group:
                self.seeks.drop_pool_if_empty(pool)
                return made
            try:
                kept = self._make(group, wishes)
            except Exception:
                if cap:
                    self.seeks.unpair(group, now)
                raise
            if not kept:  # a block came between them: they wait again, for the next pass (never a spin here)
                if cap:
                    self.seeks.unpair(group, now)
                return made
            made += 1

    def pair_all(self) -> int:
        """The reconciler's pass: the seeks a crashed maker left `pairing` put back, then every
        pool paired again (windows widen with time)."""
        self.repair()
        return sum(self.pair(pool, wishes) for pool, wishes in self.seeks.pools().items())

    def repair(self, now: int | None = None) -> int:
        """Seeks left `pairing` PAIRING_STALE_S (the process making their game died) wait again
        in their pools, their waiting time kept; returns how many. `matched` records older than
        MATCHED_KEPT_S are deleted (they were kept for good)."""
        now = now if now is not None else _now()
        back = 0
        for player_id, seek, raw in self.seeks.sweep(now - PAIRING_STALE_S * 1000, now - MATCHED_KEPT_S * 1000):
            back += self.seeks.put_back(player_id, seek, raw)
        return back

    def _make(self, group: list[str], wishes: dict[str, Any]) -> bool:
        order = list(group)
        secrets.SystemRandom().shuffle(order)  # who sits first is nobody's choice
        found = self.players.find_many(order)
        people = [found[p] for p in order]
        seats = [{"name": p.name if p is not None else "Player", "player": pid} for p, pid in zip(people, order)]
        if self.blocks is not None and self.blocks.any_among(order):  # blocked since the pairing read the marks
            self._back(order)
            return False
        try:
            created = self.service.create(wishes["type"], seats, dict(wishes["options"]), None, False,
                                          wishes["clock"], rated=wishes["rated"])
        except Exception:
            for pid in order:  # not left `pairing` for good: they may seek again
                self.seeks.forget(pid)
            raise
        if self.blocks is not None:
            self.blocks.meeting(created["id"], order)  # for a block's parting to find
            if self.blocks.any_among(order):  # blocked while the game was made: withdrawn, they wait again
                self._withdraw(created["id"])
                self._back(order)
                return False
        at = _now()
        pipe = self.players.redis.pipeline(transaction=False)
        for seat, pid in enumerate(order):
            # No seat token: the player acts in its game with its key.
            self.seeks.matched(pid, {"status": "matched", "game_id": created["id"], "seat": seat, "since": at})
            entry = {"type": "matched", "game_id": created["id"], "game_type": wishes["type"],
                     "version": created["version"], "at": at, "seat": seat}
            self.players.write_inbox(pipe, pid, entry, at)
        pipe.execute()
        if self.told is not None:
            self.told(order)
        return True


    def _back(self, group: list[str]) -> None:
        """A group that may not meet (a block): each seeker waits again in its pools."""
        for pid in group:
            self.seeks.back(pid)

    def _withdraw(self, game_id: str) -> None:
        ended = {"type": pe.ABORTED, "seat": None, "reason": "a block between two of its players"}
        decide_and_append(self.service, game_id,
                          lambda game, at: [] if game.finished else [NewEvent(pe.ABORTED, ended, None)])


def _now() -> int:
    return int(time.time() * 1000)

