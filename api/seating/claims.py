"""People meet: open seats, claims, leaving, the lobby's listing, a player's games, rematches.

Every change of seats is a platform event appended to the game's history at the version it was
judged on (api/platform/decisions.py decides, api/games/appending.py appends), so the store's
version check decides races: of many claimers of one seat exactly one appends, the others are
judged again on the game as it now is and told `409 seat_taken`. The claim that fills the last
seat appends, in the same append, `seat_claimed`, `seats_filled` and the game's setup events,
drawn from the seed committed at creation: nobody sees a deal before the table is complete.
Flask-free: the routes (api/http/lobby.py, api/http/players.py) parse and shape.
"""
from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from api import metrics
from api.errors import ApiError, Code, GameArchived, UnknownGame, VersionConflict
from api.games.appending import decide_and_append
from api.games.callers import hash_token, people_to_act
from api.games.presenting import public_seat
from api.games.repository import Game
from api.games.service import GameService
from api.lobby.index import LobbyIndex
from api.platform import clocks, decisions
from api.platform import events as pe
from api.platform.decisions import SeatConflict
from api.players.accounts import Player
from api.social.blocks import Blocks, cannot_meet
from events.archive import Damaged
from events.store import NewEvent

DAMAGED = cast(Game, object())  # _game_or_none's answer for a game whose archived record is damaged
REMATCH_RESERVED_S = 600
PART_NEWEST = 20  # a player's newest games a block's parting looks at (beside the tables in the making)


@dataclass(frozen=True)
class Claimer:
    """Who claims a seat: a player, or somebody anonymous with a name."""

    name: str
    player: Player | None = None


def now_ms() -> int:
    return int(time.time() * 1000)


def platform_events(events: list[dict[str, Any]], actor: object) -> list[NewEvent]:
    """Decided platform events as appended: a seat's own by `actor`, what follows (the start,
    the deal) by nobody."""
    return [NewEvent(e["type"], e, actor if e["type"] in (pe.SEAT_CLAIMED, pe.SEAT_LEFT) else None) for e in events]


class NotGroupMember(ApiError):
    status, code = 403, Code.NOT_GROUP_MEMBER


class LinkedAccounts(ApiError):
    status, code = 409, Code.LINKED_ACCOUNTS


class Lobby:
    def __init__(self, service: GameService, index: LobbyIndex | None, per_player: int = 0,
                 linked_to: Callable[[str, list[str]], list[str]] | None = None, blocks: Blocks | None = None,
                 group_member: Callable[[str, str], bool] | None = None):
        self.service = service
        self.index = index
        self.per_player = per_player  # a player's waiting games on one page of the listing (0: no cap)
        self.linked_to = linked_to  # those of the players linked to one (api/moderation/addresses.py)
        self.blocks = blocks  # the one block check point (api/social/blocks.py)
        self.group_member = group_member  # (group, player): a member (api/social/groups.py), for a group's games

    # ---- claims ---------------------------------------------------------------------------

    def claim(self, game_id: str, seat: int, claimer: Claimer, invite: str | None = None) -> dict[str, Any]:
        """Seats the claimer; answers the seat's token (to the claimer only)."""
        token = f"{game_id}.{seat}.{secrets.token_urlsafe(24)}"
        player = claimer.player.id if claimer.player else None
        invite_sha256 = hash_token(invite) if invite is not None else None

        def decide(game: Game, at: int) -> list[Any]:
            group = game.meta.get("group")
            if group and self.group_member is not None and not game.started and \
                    (player is None or not self.group_member(group, player)):
                raise NotGroupMember("This game is a group's: its seats are for the group's members "
                                     "(POST /groups/{id}/join).", version=game.version)
            if player is not None:
                self._check_links(game, player)
                if self.blocks is not None and not game.started and not game.finished:
                    self.blocks.check(player, at_table(game), game.version)
            events = decisions.claim(game, seat, claimer.name, player, hash_token(token), invite_sha256, at,
                                     bool(claimer.player and claimer.player.bot))
            return platform_events(events, seat)

        if player is not None and self.blocks is not None:
            self.blocks.meeting(game_id, [player])  # before the append: a block's parting finds it
        updated = decide_and_append(self.service, game_id, decide, lost=metrics.seat_changes.labels("lost")).appended
        apart = self.blocks.conflicts(player, at_table(updated)) if player is not None and self.blocks else []
        if player is not None and apart:  # a block written meanwhile: the seat is left again
            self.part_at(game_id, player, apart)
            raise cannot_meet(updated.version)
        metrics.seat_changes.labels("claimed").inc()
        if updated.started:
            metrics.seat_changes.labels("started").inc()
        return {"id": game_id, "seat": seat, "token": token, "version": updated.version, "status": updated.status}

    def _check_links(self, game: Game, player: str) -> None:
        """A rated game seats no account linked to one seated already (a casual game does)."""
        if self.linked_to is None or not game.platform.rated or game.started or game.finished:
            return  # a started or finished game's own refusal is said by the decision
        seated = [s["player"] for s in game.seats if s.get("player") and s["player"] != player]
        linked = self.linked_to(player, seated) if seated else []
        if linked:
            raise LinkedAccounts("This rated game seats an account linked to yours (by an address, a key or a "
                                 "sign-in): it cannot seat you. A casual game can (\"rated\": false).",
                                 version=game.version, details={"linked_seats": sorted(
                                     i for i, s in enumerate(game.seats) if s.get("player") in linked)})

    def leave(self, game_id: str, seat: int) -> dict[str, Any]:
        """Frees a claimed seat of a waiting game (the caller was authenticated as the seat)."""
        updated = decide_and_append(self.service, game_id,
                                    lambda game, at: platform_events(decisions.leave(game, seat), seat)).appended
        metrics.seat_changes.labels("left").inc()
        return {"id": game_id, "seat": seat, "version": updated.version, "status": updated.status}

    # ---- blocks (issue 53) ------------------------------------------------------------------

    def part(self, blocker: str, blocked: str) -> int:
        """After a block: the two parted at every table either was seated at (or reserved a seat
        at, or created) by a meeting path lately, and at their newest games, where nobody has
        played yet. Returns how many tables changed."""
        candidates: dict[str, None] = {}
        if self.blocks is not None:
            for who in (blocker, blocked):
                candidates.update(dict.fromkeys(self.blocks.tables(who)))
        players = self.service.players
        if players is not None:
            for who in (blocker, blocked):
                candidates.update(dict.fromkeys(g for g, _ in players.games_page(who, None, PART_NEWEST)))
        return sum(self.part_at(game_id, blocked, [blocker]) for game_id in candidates)

    def part_at(self, game_id: str, player: str, others: list[str]) -> int:
        """At a game nobody has played in yet where `player` meets one of `others`: the seat one
        of them claimed is left (a waiting game), else the game is aborted. 1 if it changed."""
        def decide(game: Game, at: int) -> list[Any]:
            present = at_table(game)
            met = [o for o in others if o in present]
            if game.finished or game.platform.person_moved or player not in present or not met:
                return []
            if not game.started:
                for who in (player, *met):
                    seat = game.seat_of_player(who)
                    if seat is not None and not game.seats[seat]["creator"] and game.seats[seat]["token_sha256"]:
                        return platform_events(decisions.leave(game, seat), seat)
            ended = {"type": pe.ABORTED, "seat": None, "reason": "a block between two of its players"}
            return [NewEvent(pe.ABORTED, ended, None)]

        try:
            decided = decide_and_append(self.service, game_id, decide)
        except (UnknownGame, GameArchived, Damaged):
            return 0
        return 1 if decided.events else 0

    # ---- rematch ----------------------------------------------------------------------------

    def rematch(self, game_id: str) -> tuple[dict[str, Any], bool]:
        """A new waiting game like this finished one: same type, options and bots, each player's
        seat kept for them REMATCH_RESERVED_S; (its summary, whether it was made now)."""
        service = self.service
        game = service.load(game_id)
        if not game.finished:
            raise SeatConflict("A rematch is offered once the game is over.", code=Code.GAME_NOT_OVER,
                               version=game.version)
        if game.platform.rematch:
            return {"id": game.platform.rematch}, False
        if service.store.closed(game_id):  # archived: refused before a new game is made
            raise GameArchived("This game was moved to the archive: it takes no more changes (a rematch is offered "
                               "until it is archived, ARCHIVE_AFTER_S after its end).", version=game.version)
        until = now_ms() + REMATCH_RESERVED_S * 1000
        seats = []
        for s in game.seats:
            if s["bot"] is not None:
                seats.append({"bot": s["bot"]})
            elif s["player"] is not None:
                seats.append({"open": True, "reserved_for": s["player"], "reserved_until": until})
            else:
                seats.append({"open": True})
        created = service.create(game.definition.name, seats, dict(game.platform.options or {}), None,
                                 game.platform.private, game.platform.clock, rated=game.platform.rated)
        try:
            decided = decide_and_append(service, game_id, lambda judged, at: platform_events(
                decisions.rematch(judged, created["id"]), None), game=game)
        except (VersionConflict, GameArchived):
            self._withdraw(created["id"])
            raise
        if decided.events:
            return created, True
        self._withdraw(created["id"])  # another rematch won: ours is withdrawn and theirs answered
        return {"id": decided.game.platform.rematch}, False

    def _withdraw(self, game_id: str) -> None:
        """Ends a rematch made in vain (out of the lobby)."""
        new = self.service.load(game_id)
        ended = {"type": pe.ABANDONED, "reason": "a duplicate rematch", "idle_seconds": 0}
        self.service.append_platform(new, [NewEvent(pe.ABANDONED, ended, None)])
        if self.index is not None:
            self.index.place(new.id, new.definition.name, None, now_ms())

    # ---- reading ----------------------------------------------------------------------------

    def listing(self, status: str, type_: str | None, cursor: tuple[int, str] | None, limit: int,
                skipped: list[dict[str, Any]] | None = None) -> tuple[Any, ...]:
        """(games, next cursor) of the lobby: newest first; entries whose game changed status
        are moved to where they belong as they are met. A page of waiting games shows at most
        `per_player` of one player's (those a player sits in, the newest first): one player's
        flood of games cannot fill it; its others are passed over on that page. A game whose
        archived record is damaged is passed over (and kept in the index), noted in `skipped`
        (as in my_games). The cursor is None once the index has no more."""
        index = self.index
        if index is None:
            raise RuntimeError("the lobby's listing reads its index: this Lobby was made without one")
        shown: list[dict[str, Any]] = []
        per_player: dict[str, int] = {}
        scanned = 0
        while len(shown) < limit and scanned < limit * 4:
            batch = index.page(status, type_, cursor, limit)
            if not batch:
                return shown, None
            for game_id, score in batch:
                scanned += 1
                cursor = (score, game_id)
                game = self._game_or_none(game_id, skipped)
                if game is DAMAGED:
                    continue
                if game is None or game.platform.private or game.status != status or \
                        (type_ and game.definition.name != type_):
                    if game is None or game.platform.private:
                        index.place(game_id, type_ or "-", None, score)
                    elif game.status != status:
                        index.place(game_id, game.definition.name, game.status, game.last_at or score)
                    else:
                        index.drop(game_id, status, type_)
                    continue
                if status == "waiting" and self.per_player and self._crowded(game, per_player):
                    continue
                shown.append(summary(game, score))
                if len(shown) == limit:
                    break
        return shown, cursor

    def _crowded(self, game: Game, per_player: dict[str, int]) -> bool:
        """Whether the page shows `per_player` games of a player seated in this one already
        (else the game is counted for each of its seated players)."""
        seated = {s["player"] for s in game.seats if s.get("player")}
        if any(per_player.get(p, 0) >= self.per_player for p in seated):
            return True
        for p in seated:
            per_player[p] = per_player.get(p, 0) + 1
        return False

    def my_games(self, player: Player, status: str | None, my_turn: bool | None,
                 cursor: tuple[int, str] | None, limit: int, skipped: list[dict[str, Any]] | None = None
                 ) -> tuple[Any, ...]:
        """(the player's games, most recent first; next cursor). A game whose archived record is
        damaged is passed over, noted in `skipped` ({id, code}) to say so: it stays among the
        player's games, listed again once repaired."""
        players = self.service.players
        shown: list[dict[str, Any]] = []
        scanned = 0
        while len(shown) < limit and scanned < limit * 10:
            batch = players.games_page(player.id, cursor, limit)
            if not batch:
                return shown, None
            for game_id, score in batch:
                scanned += 1
                cursor = (score, game_id)
                game = self._game_or_none(game_id, skipped)
                if game is DAMAGED:
                    continue
                seat = None if game is None else game.seat_of_player(player.id)
                if game is None or seat is None:
                    players.forget_game(player.id, game_id)
                    continue
                item = summary(game, score)
                item["you"] = seat
                item["my_turn"] = seat in people_to_act(game) and not game.finished
                if (status and game.status != status) or (my_turn is not None and item["my_turn"] != my_turn):
                    continue
                shown.append(item)
                if len(shown) == limit:
                    break
        return shown, cursor

    def public_games(self, player_id: str, cursor: tuple[int, str] | None, limit: int,
                     skipped: list[dict[str, Any]] | None = None) -> tuple[Any, ...]:
        """(finished public games the player sat in, most recent first; next cursor): a public
        profile's games. Its private games, and those still played, are not shown to others.
        Damaged archived records: as in my_games."""
        players = self.service.players
        shown: list[dict[str, Any]] = []
        scanned = 0
        while len(shown) < limit and scanned < limit * 10:
            batch = players.games_page(player_id, cursor, limit)
            if not batch:
                return shown, None
            for game_id, score in batch:
                scanned += 1
                cursor = (score, game_id)
                game = self._game_or_none(game_id, skipped)
                if game is DAMAGED:
                    continue
                seat = None if game is None else game.seat_of_player(player_id)
                if game is None or seat is None or not game.finished or game.platform.private:
                    continue
                item = summary(game, score)
                item["you"] = seat
                item["result"] = game.result
                shown.append(item)
                if len(shown) == limit:
                    break
        return shown, cursor

    def _game_or_none(self, game_id: str, skipped: list[dict[str, Any]] | None = None) -> Game | None:
        """The game; None if there is none; DAMAGED (noted in `skipped`) if its archived record
        is damaged (the store logged it): a list passes it over and says so."""
        try:
            return self.service.load(game_id)
        except UnknownGame:
            return None
        except Damaged:
            if skipped is not None:
                skipped.append({"id": game_id, "code": str(Code.ARCHIVE_DAMAGED)})
            return DAMAGED


def at_table(game: Game) -> list[str]:
    """The players a block keeps a newcomer from: those seated, the player a free seat is kept
    for (while it is), and the game's creator."""
    found = [s["player"] for s in game.seats if s.get("player")]
    found += [s["reserved_for"] for s in game.seats if s.get("reserved_for") and pe.is_free(s)]
    if game.meta.get("creator"):
        found.append(game.meta["creator"])
    return list(dict.fromkeys(found))


def summary(game: Game, at: int) -> dict[str, Any]:
    shown = {"id": game.id, "type": game.definition.name, "status": game.status, "version": game.version,
             "seats": [public_seat(i, s) for i, s in enumerate(game.seats)], "to_act": game.actors(),
             "last_move_at": game.last_at or at, "rematch": game.platform.rematch}
    if game.platform.clock is not None:
        shown["clock"] = clocks.shown(game.platform, now_ms())  # a player's games: whose time runs out when
    return shown

