"""Moderation: the role, the flags, and voids that re-rate everyone exactly (issue 50). Flask-free.

The moderation stream `moderation:{ratings}:events` (a Redis stream of its own, never a game's
history) keeps the decider's events (api/moderation/decider.py); the state is their fold. Each
game type's ratings live in a hash slot of their own (api/ratings/ledger.py: `{ratings:<type>}`),
so a void is a transaction per slot: the event appended to the stream first, then, type by type
(`apply`), one transaction of the type's slot writes the type's voided set (the stream's fold), every
rating of the type the ledger's recompute without the voided players' games changes, the stream's
last event applied, and the re-rating's entry in the type's outbox; watched on the type's cursor,
voided set and applied marker. A game counted by the reconciler meanwhile makes the type's
re-rating compute again; a re-rating committed first makes the reconciler's batch read again, with
the new voided set: either way each game is counted once, as a rebuild would count it. A process
stopped between the event and a type's re-rating leaves the type behind the stream's last event:
the reconciler's pass (`settle`) re-rates it. Each outbox entry is then logged into its players'
re-rating logs (in the stream's slot) once (`deliver`: a hash of the entries logged, written in
the same transaction), and they are told. Leaderboards and profiles read the ledger: they show the
new numbers as soon as the type's transaction is written. The re-rating starts at the first game
of the player voided or restored (the ledger's `recompute_from`: the same numbers as rating every
game again, from the ratings each later game's record kept), or rates every game of the type again
where that cannot be exact. Each player whose rating changed is told on its stream (`rerated`:
before and after, per game type).

Moderators: the players named by MODERATORS, and those the operator granted the role
(`python -m tools.moderators grant <player_id>`: an event of the stream). Never the API.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import redis

from api.errors import ApiError, Code
from api.games import harvest
from api.moderation import decider, signals
from api.moderation.addresses import Addresses
from api.platform.events import PLATFORM_EVENTS
from api.ratings.ledger import Ledger, displayed
from api.ratings.profiles import UnknownPlayerId
from api.ratings.standings import standings
from events import codec
from events.store import EventStore, StoreUnavailable

if TYPE_CHECKING:
    from api.moderation.peeking import PeekingEvidence
    from api.players.accounts import Player, Players

log = logging.getLogger(__name__)
READ_GAMES_UP_TO = 400  # events: a longer game's decisions are not counted (it is not fast)
PAUSE_MS = 600_000  # the longest the counting waits for a void's recompute (a crashed one's pause ends)


class ModeratorRequired(ApiError):
    status, code = 403, Code.MODERATOR_REQUIRED


class Moderation:
    def __init__(self, connection: Any, prefix: str, ledger: Ledger, players: Players, store: EventStore,
                 addresses: Addresses, game_types: Callable[[], list[str]], configured: tuple[str, ...] = (),
                 lookback_s: float = 3 * 86_400, pushed: Callable[[Iterable[str]], None] | None = None,
                 rating_changed: Callable[[list[dict[str, Any]], dict[str, Any], dict[str, int]], Any] | None = None,
                 incremental: bool = True, archived: Callable[[list[str]], set[str]] | None = None,
                 file: Callable[[list[str]], int] | None = None) -> None:
        self.redis: Any = connection
        self.ledger = ledger
        self.players = players
        self.store = store
        self.addresses = addresses
        self.game_types = game_types
        self.configured = frozenset(configured)  # MODERATORS
        self.lookback_ms = int(lookback_s * 1000)
        # Told of each void and its undo once it is written: (kind, player id, by, reason). The
        # tournaments' standings follow (api/tournaments/service.py: one adjustment each).
        self.on_void: list[Callable[[str, str, str, str], None]] = []
        self.key = f"{prefix}moderation:{{ratings}}:events"
        # pushed(player ids): their Web Push jobs queued (api/push/notify.py's PushNotify.players);
        # rating_changed(the players' changes, the event): their webhooks' `rating.changed`
        self.pushed = pushed
        self.rating_changed = rating_changed
        # a void re-rates from the first game of the player voided or restored on, where that is
        # exact (api/ratings/ledger.py's recompute_from), else every game; False: every game always
        self.incremental = incremental
        self.last_rerating = ""  # how the last re-rating went ("all", or "from <n> games"): bench/voids.py
        # With the archive: which games are archived (their markers), and the filing of their
        # records Redis holds into it (workers/archiver.py's file_ratings): a void's re-rating of
        # an archived game is the archive's, Redis keeping no record of it.
        self.archived = archived
        self.file = file
        self.peeking: PeekingEvidence | None = None  # the finished games' peeking evidence (wiring.py)

    # ---- the stream and its state ------------------------------------------------------------
    def events(self, reader: Any = None) -> list[dict[str, Any]]:
        found = (reader or self.redis).xrange(self.key, "-", "+")
        return [{**codec.loads(fields[b"e"]), "id": entry_id.decode()} for entry_id, fields in found]

    def state(self, reader: Any = None) -> decider.State:
        return decider.fold(self.events(reader))

    def is_moderator(self, player_id: str) -> bool:
        return player_id in self.configured or player_id in self.state().moderators

    def require_moderator(self, player: Player) -> None:
        if not self.is_moderator(player.id):
            raise ModeratorRequired("Only a moderator may do this; the operator grants the role "
                                    "(python -m tools.moderators grant <player_id>, or MODERATORS).")

    # ---- acting ------------------------------------------------------------------------------
    def act(self, kind: str, player_id: str, by: str, reason: str, now_ms: int | None = None) -> dict[str, Any]:
        """Decides the command and appends its events (one transaction, in the stream's slot);
        when the voided set changes, re-rates each game type without the voided players' games
        (a transaction per type, in its slot: `apply`) and logs and tells each player whose
        rating changed. Returns {"events", "rerated"}."""
        if kind in ("void", "unvoid") and self.players.find(player_id) is None:
            raise UnknownPlayerId("No player has this id.")
        command = decider.Command(kind, player_id, by, reason, now_ms or int(time.time() * 1000))
        events = self._append(command)
        rerated: list[dict[str, Any]] = []
        self.last_rerating = ""
        if events and kind in ("void", "unvoid"):
            for type_ in self.game_types():
                rerated += self.apply(type_, by)
            self.deliver()
            for told in self.on_void:
                told(kind, player_id, by, reason)
        return {"events": events, "rerated": rerated}

    def _append(self, command: decider.Command) -> list[dict[str, Any]]:
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(self.key)
                    events = decider.decide(self.state(pipe), command)
                    if not events:
                        pipe.unwatch()
                        return []
                    pipe.multi()
                    for event in events:
                        pipe.xadd(self.key, {"e": codec.dumps_bytes(event)})
                    pipe.execute()
                    return events
                except redis.WatchError:
                    continue  # another moderator's action meanwhile: decide again

    def settle(self) -> int:
        """The reconciler's pass: each type whose ratings do not follow the stream's last event
        yet (a void's process stopped between its event and a type's re-rating) re-rated, and the
        re-ratings not logged yet logged and told. How many types were re-rated."""
        last = self.redis.xrevrange(self.key, "+", "-", count=1)
        head = last[0][0].decode() if last else "0"
        types = self.game_types()
        pipe = self.redis.pipeline(transaction=False)
        for type_ in types:
            pipe.get(self.ledger.applied_key(type_))
        behind = [t for t, at in zip(types, pipe.execute()) if (at or b"0").decode() != head]
        done = sum(1 for t in behind if self.apply(t, "reconciler"))
        self.deliver()
        return done

    def apply(self, type_: str, by: str) -> list[dict[str, Any]]:
        """Re-rates the type as the stream's voided set says (where its own set differs), in one
        transaction of the type's slot: its voided set, every rating it changes, its cursor, the
        stream's last event applied, and the re-rating's entry in the type's outbox (logged by
        `deliver`). Returns the type's changes."""
        ledger = self.ledger
        self.redis.set(ledger.paused_key(type_), by, px=PAUSE_MS)  # its counting waits meanwhile
        try:
            return self._apply(type_)
        finally:
            self.redis.delete(ledger.paused_key(type_))

    def _apply(self, type_: str) -> list[dict[str, Any]]:
        ledger = self.ledger
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(ledger.cursor_key(type_), ledger.excluded_key(type_), ledger.applied_key(type_))
                    events = self.events()  # the stream's slot: read, not watched (a later action applies again)
                    head = events[-1]["id"] if events else "0"
                    excluded = decider.excluded(decider.fold(events))
                    old = ledger.excluded(pipe, type_)
                    if excluded == old:
                        if (pipe.get(ledger.applied_key(type_)) or b"0").decode() != head:
                            pipe.multi()
                            pipe.set(ledger.applied_key(type_), head)
                            pipe.execute()
                        else:
                            pipe.unwatch()
                        return []
                    before = ledger.every_rating(pipe, [type_])
                    plan = ledger.recompute_from(self.store, type_, excluded, excluded ^ old) \
                        if self.incremental else None
                    if plan is None:  # every game rated again (what a rebuild without them gives)
                        old_keys = ledger.every_key(pipe, type_)
                        changed, cursor = ledger.recompute(self.store, type_, excluded)
                        after = {k: r for k, r in changed["table"].items() if k[0] == type_}
                    else:  # from the first game of the player voided or restored on: the same numbers
                        members = ledger.season_members(pipe, plan["boards"])
                        after = {**before, **{k: r for k, r in plan["table"].items() if k[0] == type_}}
                        after = {k: r for k, r in after.items() if r.games > 0}
                        changed = plan
                    archived = self._archived(changed)
                    if plan is None or plan["games"] or not self.last_rerating:  # the type with games to re-rate
                        self.last_rerating = "all" if plan is None else f"from {len(plan['games'])} games"
                    rerated = _changes(before, after)  # the type's ratings, not the seasons'
                    cause = next((e for e in reversed(events) if e["type"] in (decider.VOIDED, decider.UNVOIDED)),
                                 {"type": decider.UNVOIDED, "at": 0})
                    pipe.multi()
                    pipe.delete(ledger.excluded_key(type_))
                    if excluded:
                        pipe.sadd(ledger.excluded_key(type_), *sorted(excluded))
                    if plan is None:
                        ledger.replace(pipe, type_, old_keys, changed, cursor, archived)
                    else:
                        ledger.replace_from(pipe, type_, plan, members, archived)
                    pipe.set(ledger.applied_key(type_), head)
                    pipe.delete(ledger.paused_key(type_))
                    if rerated:  # logged and told once (`deliver`), even if this process stops now
                        pipe.rpush(ledger.outbox_key(type_), codec.dumps_bytes(
                            {"key": f"{head}:{type_}", "rerated": rerated, "event": cause}))
                    pipe.execute()
                    break
                except redis.WatchError:
                    continue  # a game counted, or another moderator's action applied, meanwhile: again
        self._file(changed)
        return rerated

    def deliver(self) -> int:
        """Each type's re-ratings from its outbox written into their players' re-rating logs (in
        the stream's slot: one transaction each, guarded by `logged`, so a re-rating is logged
        once however often this runs), then told; how many were logged now."""
        logged = 0
        for type_ in self.game_types():
            outbox = self.ledger.outbox_key(type_)
            for raw in self.redis.lrange(outbox, 0, -1):
                item = codec.loads(raw)
                places = self._log(item)
                self.redis.lrem(outbox, 1, raw)
                if places is not None:
                    logged += 1
                    self._tell(item["rerated"], item["event"], places)
        return logged

    def _log(self, item: dict[str, Any]) -> dict[str, int] | None:
        """Writes one re-rating into its players' logs unless it was already (then None); each
        player's new place in its log."""
        logged = self._per_player(item)
        with self.redis.pipeline(transaction=True) as pipe:
            while True:
                try:
                    pipe.watch(self._logged_key())
                    if pipe.hexists(self._logged_key(), item["key"]):
                        pipe.unwatch()
                        return None
                    pipe.multi()
                    for player_id, entry in logged.items():
                        pipe.rpush(self._rating_log(player_id), codec.dumps_bytes(entry))
                    pipe.hset(self._logged_key(), item["key"], 1)
                    written = pipe.execute()
                    return {p: int(n) for p, n in zip(logged, written)}  # each list's length: the new place
                except redis.WatchError:
                    continue

    @staticmethod
    def _per_player(item: dict[str, Any]) -> dict[str, dict[str, Any]]:
        event = item["event"]
        return _per_player(item["rerated"], event["type"], event.get("at") or 0)

    def _logged_key(self) -> str:
        """Hash: the re-ratings (`<stream entry>:<type>`) logged already (in the stream's slot)."""
        return f"{self.key.removesuffix(':events')}:logged"

    def _archived(self, changed: dict[str, Any]) -> frozenset[str]:
        return frozenset(self.archived(list(changed["games"]))) if self.archived is not None else frozenset()

    def _file(self, changed: dict[str, Any]) -> None:
        """The new records of the archived games (those noted in the transaction, and any game
        archived since it was read) filed into the archive; the archive away: the archiver's
        sweep files them later (the ledger's `to_file`), reads meanwhile answering Redis's."""
        if self.file is None:
            return
        try:
            noted = sorted(self._archived(changed) | set(self.ledger.to_file(len(changed["games"]) + 1)))
            self.file(noted)
            self.ledger.filed(noted)
        except StoreUnavailable as e:
            log.warning("moderation: the re-rated archived games' records wait for the archive (%s)", e)

    def _rating_log(self, player_id: str) -> str:
        """The player's re-ratings (a list, oldest first: what its webhooks' `rating.changed` say)."""
        return f"{self.key.removesuffix(':events')}:rerated:{player_id}"

    def rating_log(self, player_id: str, start: int) -> list[dict[str, Any]]:
        """The player's re-ratings from the `start`-th (from 1) on."""
        return [codec.loads(raw) for raw in self.redis.lrange(self._rating_log(player_id), max(0, start - 1), -1)]

    def _tell(self, rerated: list[dict[str, Any]], event: dict[str, Any], places: dict[str, int]) -> None:
        """`rerated` on each player's stream: its rating before and after, per game type; then
        their pushes queued and their webhooks told. Each player hears of its own rating only,
        never who was voided (the reason is the event's type)."""
        pipe = self.players.redis.pipeline(transaction=False)
        at = int(time.time() * 1000)
        told: list[dict[str, Any]] = []
        for change in rerated:
            kind, _, player_id = change["identity"].partition(":")
            if kind != "player":
                continue
            notice = {"type": "rerated", "game_type": change["game_type"], "before": change["before"],
                      "after": change["after"], "reason": event["type"], "at": at}
            self.players.write_inbox(pipe, player_id, notice, at)
            told.append({**notice, "player": player_id})
        pipe.execute()
        if told and self.pushed is not None:
            self.pushed(sorted({t["player"] for t in told}))
        if told and self.rating_changed is not None:
            self.rating_changed(told, event, places)

    # ---- flags -------------------------------------------------------------------------------
    def rated_games(self, now_ms: int | None = None) -> list[signals.RatedGame]:
        """The rated games ended within the lookback (MODERATION_LOOKBACK_S), as the signals read them."""
        now_ms = now_ms if now_ms is not None else int(time.time() * 1000)
        cursor, found = f"{max(0, now_ms - self.lookback_ms)}-0", []
        while True:
            page, after = harvest.page(self.store, cursor, None, harvest.BATCH)
            for entry in page:
                sides = standings(entry)
                if sides is not None:
                    found.append(self._rated(entry, sides))
            if after == cursor:
                return found
            cursor = after

    def _rated(self, entry: dict[str, Any], sides: list[Any]) -> signals.RatedGame:
        ranks: dict[str, int] = {}
        seat_of: dict[int, str] = {}
        for side in sides:
            for seat, who in zip(side.seats, side.identities):
                ranks[who] = min(ranks.get(who, side.rank), side.rank)
                seat_of[seat] = who
        decisions = {who: signals.FAST_DECISIONS + 1 for who in ranks}  # a long game: not fast
        seconds = float("inf")
        if entry.get("version", 0) <= READ_GAMES_UP_TO:
            history = self.store.read(entry["id"])
            moves: dict[str, set[int]] = {who: set() for who in ranks}
            for event in history:
                if isinstance(event.actor, int) and event.type not in PLATFORM_EVENTS and event.actor in seat_of:
                    moves[seat_of[event.actor]].add(event.at)  # one decision's events share their time
            decisions = {who: len(at) for who, at in moves.items()}
            if history:
                seconds = (entry.get("last_move_at", history[-1].at) - history[0].at) / 1000
        return signals.RatedGame(entry["id"], entry["type"], entry.get("last_move_at") or 0, ranks, decisions, seconds)

    def flags(self, now_ms: int | None = None) -> list[dict[str, Any]]:
        """Every flag of the lookback, each with its evidence; the players named and shown."""
        games = self.rated_games(now_ms)
        found = signals.flags(games) + signals.table_overlap(games)
        if self.peeking is not None:  # the decisions' evidence of the lookback, judged together
            found += signals.peeking_flags(self.peeking.decisions(now_ms))
        for shared in self.addresses.shared(now_ms):
            found.append({"signal": "shared_address", "level": "warning",
                          "identities": [f"player:{p}" for p in sorted(shared["players"])], "games": [],
                          "figures": {"address": shared["address"], "accounts": shared["accounts"],
                                      "last_seen": shared["players"]}})
        for lineage in self.addresses.lineages(now_ms):
            found.append({"signal": "key_lineage", "level": "warning",
                          "identities": [f"player:{p}" for p in sorted(lineage["players"])], "games": [],
                          "figures": {"made_by": lineage["made_by"], "accounts": lineage["accounts"],
                                      "last_seen": lineage["players"]}})
        for held in self.addresses.shared_identities(now_ms):
            found.append({"signal": "shared_identity", "level": "warning",
                          "identities": [f"player:{p}" for p in sorted(held["players"])], "games": [],
                          "figures": {"identity": held["hash"], "accounts": held["accounts"],
                                      "last_seen": held["players"]}})
        voided = self.state().voided
        ids = sorted({w.partition(":")[2] for f in found for w in f["identities"] if w.startswith("player:")})
        people = self.players.find_many(ids)
        for flag in found:
            flag["players"] = [_shown(w, people, voided) for w in flag.pop("identities")]
        order = {"flag": 0, "warning": 1}
        return sorted(found, key=lambda f: (order[f["level"]], f["signal"]))


def _shown(who: str, people: dict[str, Any], voided: Any) -> dict[str, Any]:
    kind, _, name = who.partition(":")
    if kind == "bot":
        return {"bot": name}
    player = people.get(name)
    return {"id": name, "name": player.name if player is not None else None, "voided": name in voided}


def _per_player(rerated: list[dict[str, Any]], reason: str, at: int) -> dict[str, dict[str, Any]]:
    """Each re-rated player's entry in its re-rating log: its own changes, and why."""
    found: dict[str, dict[str, Any]] = {}
    for change in rerated:
        kind, _, player_id = change["identity"].partition(":")
        if kind == "player":
            entry = found.setdefault(player_id, {"reason": reason, "at": at, "changes": []})
            entry["changes"].append({"game_type": change["game_type"], "before": change["before"],
                                     "after": change["after"]})
    return found


def _changes(before: dict[tuple[str, str], Any], after: dict[tuple[str, str], Any]) -> list[dict[str, Any]]:
    """Each identity whose displayed rating (or its being rated at all) changed, per game type."""
    found = []
    for type_, who in sorted(set(before) | set(after)):
        old, new = before.get((type_, who)), after.get((type_, who))
        shown = [displayed(r.mu, r.sigma) if r is not None else None for r in (old, new)]
        counted = [r.games if r is not None else 0 for r in (old, new)]
        if shown[0] != shown[1] or counted[0] != counted[1]:
            found.append({"identity": who, "game_type": type_, "before": shown[0], "after": shown[1],
                          "games_before": counted[0], "games_after": counted[1]})
    return found
