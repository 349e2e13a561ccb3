"""Tournaments (issue 52), Flask-free: each tournament a Redis stream of its own,
`tournament:{<id>}:events` (one hash slot per tournament, as a game's keys), whose events the
decider (decider.py) decides and whose fold (state.py) is its state.

Appending: load the stream, fold, decide, append with a check that nobody appended meanwhile
(WATCH on the stream; on a conflict load and decide again, at most 50 times), as a game's
`decide_and_append`. So a round is paired once however many processes try at once: the second
finds the round paired (`round_not_ready`, or the next round not due) and appends nothing.

The games of a round are made by the server (`advance`): one game per table through the game
service (seats in the table's order: a player's `{"name", "player"}`, a bot's `{"bot"}`; the
rules' options, clock and rating), linked by a `game_linked` event and noted in
`tournaments:games` (game id -> tournament, round, table). A game's end comes back through the
game service's listeners (`heard`, in whichever process appended the end: a web process for a
person's move, a worker for a bot's): its places (api/ratings/standings.places) become a
`game_result`, and the tournament advances (the next round paired, or the tournament finished).
The reconciler's `sweep` repairs what a crash lost between those steps: a table without its game,
a finished game whose result was not reported, a round due but not paired. A table's game is made
under a claim (`SET NX`, 60 s), so two processes advancing at once make one game; a game made but
never linked (its maker died between the two) is never the table's result.

Keys besides the streams: `tournaments:index` (a sorted set of ids by creation time),
`tournaments:summaries` (id -> the listing's summary, rewritten with each append),
`tournaments:unfinished` (the ids the sweep walks), `tournaments:games` (game id -> tournament,
round, table), `tournaments:player:<id>` (the tournaments a player entered: a void reaches them)
and `tournament:{<id>}:events:making:<round>:<table>` (a table's game being made, 60 s).
"""
from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import redis

from api.errors import ApiError, Code, UnknownGameType, ValidationFailed
from api.games import harvest
from api.games.options import merged_options
from api.paging import sorted_page
from api.platform import clocks
from api.ratings.ledger import displayed
from api.ratings.standings import places
from api.tournaments import decider, news, standings
from api.tournaments.state import State, fold
from domain import registry
from events import codec

if TYPE_CHECKING:
    from api.games.repository import Game
    from api.games.service import GameService
    from api.players.accounts import Player, Players
    from api.ratings.ledger import Ledger

log = logging.getLogger(__name__)
RETRIES = 50
MAX_BOT_ENTRANTS = 64
STEPS = 200  # the most steps one advance takes (rounds paired, games made, results)
MAKING_MS = 60_000  # a table's game is made by one process at a time: its claim's life
LIST_SCAN = 1_000  # the most tournaments one page of the listing reads past its filters
NEWEST_KEPT = 10_000  # tournaments whose newest event id a process keeps for its live streams


class UnknownTournament(ApiError):
    status, code = 404, Code.UNKNOWN_TOURNAMENT


class OrganiserRequired(ApiError):
    status, code = 403, Code.ORGANISER_REQUIRED


class Tournaments:
    def __init__(self, connection: Any, prefix: str, ledger: Ledger | None = None,
                 players: Players | None = None) -> None:
        self.redis: Any = connection
        self.prefix = prefix
        self.ledger = ledger
        self.players = players
        self.games: GameService | None = None  # set by the composition root once the game service is built
        # A group's state by its id (api/social/groups.py), for a group's tournaments; set by the root.
        self.group_of: Callable[[str], Any] | None = None
        # (players, kind, data, at) -> the players' webhooks told (api/webhooks/news.py); set by the root
        self.told: Callable[[list[str], str, dict[str, Any], int], object] | None = None
        self._newest: dict[str, tuple[float, str | None]] = {}  # tournament -> (when read, its newest event id)
        self.index_key = f"{prefix}tournaments:index"
        self.summaries_key = f"{prefix}tournaments:summaries"
        self.games_key = f"{prefix}tournaments:games"
        self.unfinished_key = f"{prefix}tournaments:unfinished"  # what the reconciler's sweep walks

    def of_player_key(self, player_id: str) -> str:
        """The tournaments a player entered (a set of ids), for a moderator's void to reach."""
        return f"{self.prefix}tournaments:player:{player_id}"

    def key(self, tournament_id: str) -> str:
        return f"{self.prefix}tournament:{{{tournament_id}}}:events"

    # ---- reading ----------------------------------------------------------------------------
    def events(self, tournament_id: str, reader: Any = None) -> list[dict[str, Any]]:
        found = (reader or self.redis).xrange(self.key(tournament_id), "-", "+")
        return [codec.loads(fields[b"e"]) for _, fields in found]

    def state(self, tournament_id: str) -> State:
        state = fold(self.events(tournament_id))
        if state.rules is None:
            raise UnknownTournament("No tournament has this id.")
        return state

    def newest(self, tournament_id: str, max_age_s: float = 0.0) -> str | None:
        """The id of the tournament's newest event, read at most every `max_age_s` per tournament
        and process: what its live streams' subscribers wait on (one read for all of them)."""
        now = time.monotonic()
        seen = self._newest.get(tournament_id)
        if seen is not None and now - seen[0] < max_age_s:
            return seen[1]
        found = self.redis.xrevrange(self.key(tournament_id), "+", "-", count=1)
        newest = _text(found[0][0]) if found else None
        if len(self._newest) >= NEWEST_KEPT:
            self._newest.clear()  # a bounded cache: the streams read again at their next poll
        self._newest[tournament_id] = (now, newest)
        return newest

    def after(self, tournament_id: str, position: str, count: int = 100) -> list[tuple[str, dict[str, Any]]]:
        """The events after the stream id `position` ("0-0": from the first), oldest first: what
        its live stream sends next, each with its id (a reconnect's Last-Event-ID)."""
        found = self.redis.xrange(self.key(tournament_id), f"({position}", "+", count=count)
        return [(_text(i), codec.loads(fields[b"e"])) for i, fields in found]

    def lines(self, tournament_id: str) -> Iterator[bytes]:
        """The history as NDJSON, one event a line, oldest first."""
        self.state(tournament_id)
        for _, fields in self.redis.xrange(self.key(tournament_id), "-", "+"):
            yield bytes(fields[b"e"]) + b"\n"

    def listing(self, status: str | None = None, type_: str | None = None, format_: str | None = None,
                limit: int = 50, group: str | None = None, before: tuple[int, str] | None = None
                ) -> tuple[list[dict[str, Any]], tuple[int, str] | None]:
        """(the tournaments that pass the filters, newest first, after the cursor `before`
        (created ms, id); the cursor of the next page, None at the index's end). At most LIST_SCAN
        are read for one page, so a rare filter's page may hold fewer than `limit` and still have
        a next page: a client follows `next` until it is null."""
        found: list[dict[str, Any]] = []
        cursor, scanned = before, 0
        while scanned < LIST_SCAN:
            # a batch of at least 100: a rare filter reads its LIST_SCAN in a few round trips
            batch = sorted_page(self.redis, self.index_key, cursor, min(max(limit, 100), LIST_SCAN - scanned))
            if not batch:
                return found, None
            raw = self.redis.hmget(self.summaries_key, [i for i, _ in batch])
            for (tournament_id, created), one in zip(batch, raw):
                scanned, cursor = scanned + 1, (created, tournament_id)
                summary = None if one is None else codec.loads(one)
                if summary is None or (status and summary["status"] != status) or \
                        (type_ and summary["type"] != type_) or (format_ and summary["format"] != format_) or \
                        (group and summary.get("group") != group):
                    continue
                found.append(summary)
                if len(found) == limit:
                    return found, cursor
        return found, cursor

    def shown(self, state: State) -> dict[str, Any]:
        """GET /tournaments/{id}: the rules, the standings and the rounds."""
        rules = state.rules
        assert rules is not None
        return {**self._summary(state), "rules": rules.as_dict(), "standings": standings.compute(state),
                "rounds": [{"round": r.number, "at": r.at,
                            "byes": [{"entrant": e, "points": p} for e, p in r.byes.items()],
                            "tables": [{"table": k, "seats": list(t.seats), "game_id": t.game_id, "void": t.void,
                                        **({"places": dict(t.places)} if t.places is not None else {})}
                                       for k, t in enumerate(r.tables, 1)]} for r in state.rounds],
                "next_step": decider.next_step(state, _now())}

    @staticmethod
    def _summary(state: State) -> dict[str, Any]:
        rules = state.rules
        assert rules is not None
        return {"id": state.id, "type": rules.game_type, "format": rules.format, "seats": rules.seats,
                "status": state.status, "start": rules.start, "rounds_total": decider.rounds_total(state),
                "duration_s": rules.duration_s,
                "rounds_paired": len(state.rounds), "entrants": len(state.active()), "created_by": state.by,
                "created_at": state.created_at, "finished_at": state.finished_at, "group": rules.group}

    # ---- acting -----------------------------------------------------------------------------
    def act(self, tournament_id: str,
            command: Callable[[State], decider.Command | None]) -> tuple[list[dict[str, Any]], State]:
        """Decides the command made from the current state and appends its events, unless
        someone appended meanwhile (then again). Returns (the events, the state after them)."""
        key = self.key(tournament_id)
        with self.redis.pipeline(transaction=True) as pipe:
            for _ in range(RETRIES):
                try:
                    pipe.watch(key)
                    state = fold(self.events(tournament_id, pipe))
                    made = command(state)
                    events = decider.decide(state, made) if made is not None else []
                    if not events:
                        pipe.unwatch()
                        return [], state
                    after = fold(events, state)
                    pipe.multi()
                    for event in events:
                        pipe.xadd(key, {"e": codec.dumps_bytes(event)})
                    pipe.hset(self.summaries_key, tournament_id, codec.dumps_bytes(self._summary(after)))
                    if state.rules is None:
                        pipe.zadd(self.index_key, {tournament_id: after.created_at})
                    if after.finished_at is None:
                        pipe.sadd(self.unfinished_key, tournament_id)
                    else:
                        pipe.srem(self.unfinished_key, tournament_id)
                    pipe.execute()
                    self._tell(state, events, after)
                    return events, after
                except redis.WatchError:
                    continue
        raise ApiError("The tournament is changing too fast; retry.", status=409, code=Code.VERSION_CONFLICT)

    def _tell(self, before: State, events: list[dict[str, Any]], after: State) -> None:
        """The players' webhooks told what the append means to them (after it: at most once;
        a process dying between the two loses the news, never the tournament's events)."""
        if self.told is None:
            return
        for who, kind, data in news.news(before, events, after):
            self.told(who, kind, data, int(data["at"]))

    def create(self, body: dict[str, Any], creator: Player) -> State:
        definition = registry.get(str(body.get("type")))
        if definition is None:
            raise UnknownGameType(f"This server hosts no game of type '{body.get('type')}'.")
        now = _now()
        rules = decider.rules_from(body, definition.min_seats, definition.max_seats, now)
        for size in range(rules["min_seats"], rules["seats"] + 1):  # the options each table's game will have
            merged_options(definition, dict(rules["options"]), size)
        rules["clock"] = clocks.checked(definition, rules["clock"])  # 400 invalid_clock before anything is written
        bots = _bot_entrants(body.get("entrants") or [], list(definition.bots))
        if rules["group"] is not None:
            self._group_organiser(rules["group"], creator.id)
        tournament_id = secrets.token_urlsafe(9)
        command = decider.Command("create", now, by=creator.id, id=tournament_id, rules=rules)
        self.act(tournament_id, lambda state: command)
        for entrant, level in bots:
            rating = self._rating(rules["game_type"], f"bot:{level}")
            self.act(tournament_id, _constant(decider.Command("enter", _now(), entrant=entrant, name=level,
                                                              rating=rating)))
        self.advance(tournament_id)
        return self.state(tournament_id)

    def _group_organiser(self, group_id: str, player_id: str) -> None:
        """A group's tournament is made by its owner or an admin (404 unknown_group, 403
        not_group_member or group_role_required)."""
        group = self.group_of(group_id) if self.group_of is not None else None
        if group is None or not group.exists:
            raise ApiError("No group has this id.", status=404, code=Code.UNKNOWN_GROUP)
        role = group.members.get(player_id)
        if role is None:
            raise ApiError("You are not a member of this group.", status=403, code=Code.NOT_GROUP_MEMBER)
        if role not in ("owner", "admin"):
            raise ApiError("Only the group's owner and admins make its tournaments.", status=403,
                           code=Code.GROUP_ROLE_REQUIRED)

    def _member(self, group_id: str | None, player_id: str) -> bool:
        if group_id is None or self.group_of is None:
            return False
        return player_id in self.group_of(group_id).members

    def join(self, tournament_id: str, player: Player) -> State:
        state = self.state(tournament_id)
        assert state.rules is not None
        rating = self._rating(state.rules.game_type, f"player:{player.id}")
        member = self._member(state.rules.group, player.id)  # asked before: the decider judges the rules
        self.act(tournament_id, lambda s: decider.Command("enter", _now(), entrant=f"player:{player.id}",
                                                          name=player.name, rating=rating, member=member))
        self.redis.sadd(self.of_player_key(player.id), tournament_id)
        self.advance(tournament_id)
        return self.state(tournament_id)

    def withdraw(self, tournament_id: str, player: Player) -> State:
        self.state(tournament_id)
        self.act(tournament_id, lambda s: decider.Command("withdraw", _now(), entrant=f"player:{player.id}",
                                                          reason="player"))
        self.advance(tournament_id)
        return self.state(tournament_id)

    def _rating(self, game_type: str, who: str) -> float:
        if self.ledger is None:
            return 0.0
        found = self.ledger.rating(game_type, who)
        return float(displayed(found.mu, found.sigma)) if found is not None else 0.0

    # ---- the server's part: pairing, games, results -------------------------------------
    def advance(self, tournament_id: str) -> State:
        """Does what the tournament waits for: its round paired, its tables' games made, its end."""
        state = self.state(tournament_id)
        for _ in range(STEPS):
            if self._make_games(tournament_id, state):
                state = self.state(tournament_id)
            step = decider.next_step(state, _now())
            if step is None:
                return state
            events, state = self.act(tournament_id, _if_due(step, secrets.token_hex(16)))
            if not events:
                return state
        return state

    def _make_games(self, tournament_id: str, state: State) -> bool:
        """Makes the games of the tables that have none; says whether it made any."""
        if self.games is None or state.rules is None or state.finished_at is not None:
            return False
        rules, made_any = state.rules, False
        for r in state.rounds:
            for k, table in enumerate(r.tables, 1):
                if table.game_id is not None or table.places is not None or table.void:
                    continue
                claim = f"{self.key(tournament_id)}:making:{r.number}:{k}"
                if not self.redis.set(claim, "1", nx=True, px=MAKING_MS):
                    continue  # another process makes it (or died making it: the sweep's, once the claim expires)
                seats = [self._seat(state, e) for e in table.seats]
                made = self.games.create(rules.game_type, seats, dict(rules.options), rated=rules.rated,
                                         clock=dict(rules.clock) if rules.clock else None)
                self.redis.hset(self.games_key, made["id"], codec.dumps_bytes(
                    {"tournament": tournament_id, "round": r.number, "table": k}))
                self.act(tournament_id, _constant(decider.Command("link", _now(), round=r.number, table=k,
                                                                  game_id=made["id"])))
                made_any = True
                game = self.games.load(made["id"])
                if game.finished:  # a game over at once (none yet): its result now
                    self._report(made["id"], game)
        return made_any

    def _seat(self, state: State, entrant: str) -> dict[str, Any]:
        kind, _, name = entrant.partition(":")
        if kind == "bot":
            return {"bot": name.partition("#")[0]}
        return {"name": state.entrants[entrant].name, "player": name}

    def heard(self, game: Game, events: list[tuple[str, dict[str, Any]]]) -> None:
        """A tournament game's end becomes its table's result (TournamentResults)."""
        if not game.finished:
            return
        self._report(game.id, game)

    def _report(self, game_id: str, game: Game) -> None:
        raw = self.redis.hget(self.games_key, game_id)
        if raw is None:
            return
        where = codec.loads(raw)
        entry = harvest.summary(game)
        found = places(entry)
        seats = game.platform.seats
        tournament_id = where["tournament"]

        def result(state: State) -> decider.Command | None:
            table = state.rounds[where["round"] - 1].tables[where["table"] - 1]
            if table.places is not None or table.void or table.game_id != game_id:
                return None  # reported already, or a game made for the table but never linked
            return decider.Command("result", _now(), round=where["round"], table=where["table"],
                                   places={e: found[i] for i, e in enumerate(table.seats)},
                                   missed=tuple(e for i, e in enumerate(table.seats)
                                                if i < len(seats) and seats[i].get("timed_out")))
        self.act(tournament_id, result)
        self.advance(tournament_id)

    def adjust(self, tournament_id: str, player: Player, body: dict[str, Any], moderator: bool) -> State:
        """An adjustment of a table's result by the tournament's creator or a moderator: `void_game`
        (the game counts for nobody) or `set_result` (`places`); the standings follow."""
        state = self.state(tournament_id)
        if state.by != player.id and not moderator:
            raise OrganiserRequired("Only the tournament's creator or a moderator may adjust its results.")
        command = decider.Command("adjust", _now(), how=body["kind"], round=body["round"], table=body["table"],
                                  places=body.get("places") or {}, by=player.id, reason=body["reason"])
        self.act(tournament_id, _constant(command))
        return self.advance(tournament_id)

    def player_voided(self, kind: str, player_id: str, by: str, reason: str) -> None:
        """A moderator's void (or its undo) of a player: one `result_adjusted` in each tournament it
        entered (`void_player`: its results count for nothing, its table-mates move up a place),
        whose standings follow at once."""
        how = "void_player" if kind == "void" else "unvoid_player"
        entrant = f"player:{player_id}"
        for raw in sorted(self.redis.smembers(self.of_player_key(player_id))):
            tournament_id = raw.decode() if isinstance(raw, bytes) else raw
            try:
                self.act(tournament_id, lambda s: decider.Command("adjust", _now(), how=how, entrant=entrant, by=by,
                                                                  reason=reason) if entrant in s.entrants else None)
            except Exception:
                log.warning("tournament %s: the %s of %s failed", tournament_id, how, player_id, exc_info=True)

    def sweep(self, limit: int = 100) -> int:
        """The reconciler's repair: each unfinished tournament's finished games reported, its
        missing games made, its due round paired. Returns how many tournaments it advanced."""
        done = 0
        ids = sorted(i.decode() if isinstance(i, bytes) else i for i in self.redis.smembers(self.unfinished_key))
        for tournament_id in ids[:limit]:
            try:
                state = self.state(tournament_id)
                if self.games is not None:
                    for r in state.rounds:
                        for table in r.tables:
                            if table.game_id is not None and table.places is None and not table.void:
                                game = self.games.load(table.game_id)
                                if game.finished:
                                    self._report(table.game_id, game)
                self.advance(tournament_id)
                done += 1
            except Exception:
                log.warning("tournament %s: sweep failed", tournament_id, exc_info=True)
        return done


class TournamentResults:
    """The game service's listener: a tournament game's end becomes its table's result, and the
    tournament goes on (its next round paired and made, or its end)."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments

    def __call__(self, game: Game, events: list[tuple[str, dict[str, Any]]]) -> None:
        self.tournaments.heard(game, events)


def _if_due(step: str, seed: str) -> Callable[[State], decider.Command | None]:
    """The step's command if it is still the one due (another process may have done it)."""
    def command(state: State) -> decider.Command | None:
        if decider.next_step(state, _now()) != step:
            return None
        return decider.Command(step, _now(), seed=seed)
    return command


def _constant(command: decider.Command) -> Callable[[State], decider.Command | None]:
    return lambda state: command


def _bot_entrants(entrants: list[Any], levels: list[str]) -> list[tuple[str, str]]:
    if not isinstance(entrants, list) or len(entrants) > MAX_BOT_ENTRANTS:
        raise ValidationFailed("`entrants` is a list of bot levels the creator enters, e.g. [{\"bot\": \"greedy\"}].",
                               details={"fields": {"entrants": f"at most {MAX_BOT_ENTRANTS} of {{\"bot\": level}}"}})
    found: list[tuple[str, str]] = []
    count: dict[str, int] = {}
    for one in entrants:
        level = one.get("bot") if isinstance(one, dict) and set(one) == {"bot"} else None
        if level not in levels:
            raise ValidationFailed("An entrant is a bot level of the game.",
                                   details={"fields": {"entrants": f"each {{\"bot\": one of {levels}}}"}})
        count[level] = count.get(level, 0) + 1
        found.append((f"bot:{level}" + (f"#{count[level]}" if count[level] > 1 else ""), level))
    return found


def _now() -> int:
    return int(time.time() * 1000)


def _text(raw: bytes | str) -> str:
    return raw.decode() if isinstance(raw, bytes) else raw
