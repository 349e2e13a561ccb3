"""Chat (issue 53): table, spectators', direct and group messages, each channel a Redis stream
of its own (never a game's history of moves), and the chat's decider stream (mutes, reports,
moderators' actions: api/chat/decider.py). Flask-free.

Channels and who reads them:
- `game:<id>:table`: the game's seated players; everyone once the game is over;
- `game:<id>:spectators`: everyone but the seated players while the game is played (spectators
  of a hidden-information game cannot help a player); everyone once it is over;
- `dm:<a>:<b>` (the two ids sorted): the two players, as the recipient's privacy (`message`)
  and blocks allow;
- `group:<id>`: the group's members.

Every read is per viewer: a message hidden by a moderator, or written by a player the viewer
muted or with a block between them (either way), is not shown to it, on any channel (GET, the
player stream's `chat` notices, push). A message is checked (length, the player's rate, a chat
suspension) and filtered (api/chat/words_filter.py: masked, counted per player) before it is
stored. Links are kept as text: a message is plain text, never markup.

Delivery: each recipient of a table, direct or group message (never the author, never one who
muted or blocks the author, never a seated player for the spectators' chat) gets a `chat`
notice on its player stream (its inbox); a direct message's notice is `direct_message`, pushed,
and told to the recipient's own webhooks asking for `chat.direct_message` (api/webhooks/news.py:
only those made with the `social` scope); no other channel is ever a webhook's.

Keys (under `{chat}`): `chat:{chat}:<channel>` streams; `chat:{chat}:events` (the decider's);
`chat:{chat}:conversations:<player>` (sorted set: the other player by its last message);
`chat:{chat}:snapshot` (the decider's state at an id of its stream);
`chat:{chat}:rate:<player>:<window>` (counter); `chat:{chat}:filtered` (hash: words masked per
player). The chat streams are not moved into the SQL archive with a finished game: they stay in
Redis, readable after the game, capped at CHANNEL_LENGTH messages each."""
from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import redis

from api.chat import decider
from api.chat.words_filter import WordFilter
from api.errors import ApiError, Code, ValidationFailed
from events import codec
from events.connection import UNAVAILABLE
from events.store import StoreUnavailable

if TYPE_CHECKING:
    from api.players.accounts import Player, Players
    from api.social.blocks import Blocks
    from api.social.relations import Social

TAG = "{chat}"
CHANNEL_LENGTH = 10_000  # the newest messages kept per channel
PAGE = 50
MAX_PAGE = 200
RATE_WINDOW_S = 10
CONTEXT = 5  # messages each side of a reported one kept with the report
# The decider's stream is kept whole (it is the moderators' record) and grows without bound; a
# process starting cold folds the newest snapshot and what came after it, and the process that
# folded this many events since the last one writes the next.
SNAPSHOT_EVERY = 500


class ChatClosed(ApiError):
    status, code = 403, Code.CHAT_CLOSED


class ChatSuspended(ApiError):
    status, code = 403, Code.CHAT_SUSPENDED


class ChatTooFast(ApiError):
    status, code = 429, Code.CHAT_TOO_FAST


class PlaySuspended(ApiError):
    status, code = 403, Code.PLAY_SUSPENDED


class UnknownMessage(ApiError):
    status, code = 404, Code.UNKNOWN_MESSAGE


def _now() -> int:
    return int(time.time() * 1000)


def dm_channel(a: str, b: str) -> str:
    x, y = sorted((a, b))
    return f"dm:{x}:{y}"


class Chat:
    def __init__(self, connection: Any, prefix: str, players: Players, social: Social, blocks: Blocks,
                 load: Callable[[str], Any], is_member: Callable[[str, str], bool], members: Callable[[str], list[str]],
                 words: WordFilter, max_length: int = 500, rate: int = 8,
                 told: Callable[[list[str]], object] | None = None,
                 news: Callable[[list[str], str, dict[str, Any], int], object] | None = None,
                 snapshot_every: int = SNAPSHOT_EVERY) -> None:
        self.redis: Any = connection
        self.prefix = prefix
        self.players = players
        self.social = social
        self.blocks = blocks
        self.load = load  # a game by its id
        self.is_member = is_member  # (group, player): api/social/groups.py
        self.members = members  # a group's members
        self.words = words
        self.max_length = max_length
        self.rate = rate  # messages per player per RATE_WINDOW_S
        self.told = told  # players with a new direct message: their push (api/push/notify.py)
        self.news = news  # a direct message's recipient's webhooks (api/webhooks/news.py)
        self.events_key = f"{prefix}chat:{TAG}:events"
        self.snapshot_key = f"{prefix}chat:{TAG}:snapshot"
        self.snapshot_every = snapshot_every
        self._state = decider.State()
        self._state_id = "0-0"
        self._unsnapshotted = 0  # events this process folded since the snapshot it started from or wrote
        self._lock = threading.Lock()
        self._state_at = 0.0
        self._newest: dict[str, tuple[float, str | None]] = {}  # channel -> (when read, its newest id)
        # (channel, after) -> (the newest id it was read at, the messages after `after`)
        self._pages: dict[tuple[str, str], tuple[str | None, list[dict[str, Any]]]] = {}

    def key(self, channel: str) -> str:
        return f"{self.prefix}chat:{TAG}:{channel}"

    def conversations_key(self, player_id: str) -> str:
        return f"{self.prefix}chat:{TAG}:conversations:{player_id}"

    def filtered_key(self) -> str:
        return f"{self.prefix}chat:{TAG}:filtered"

    # ---- the decider's stream ----------------------------------------------------------------
    def events(self) -> list[dict[str, Any]]:
        found = self.redis.xrange(self.events_key, "-", "+")
        return [{**codec.loads(f[b"e"]), "id": i.decode()} for i, f in found]

    def state(self, max_age_s: float = 0.0) -> decider.State:
        """The fold of the stream, kept by the process and extended by what is new (one round
        trip when nothing is; none when it was read less than `max_age_s` ago: the live chat
        streams' reads)."""
        try:
            with self._lock:
                if max_age_s and time.monotonic() - self._state_at < max_age_s:
                    return self._state
                self._state_at = time.monotonic()
                if self._state_id == "0-0":
                    self._start_from_snapshot()
                new = self.redis.xrange(self.events_key, f"({self._state_id}", "+")
                if new:
                    self._state = decider.fold((codec.loads(f[b"e"]) for _, f in new), self._state)
                    self._state_id = new[-1][0].decode()
                    self._unsnapshotted += len(new)
                    if self._unsnapshotted >= self.snapshot_every:
                        self._write_snapshot()
                return self._state
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e

    def _start_from_snapshot(self) -> None:
        raw = self.redis.get(self.snapshot_key)
        if raw is not None:
            data = codec.loads(raw)
            self._state, self._state_id = decider.restored(data["state"]), data["id"]

    def _write_snapshot(self) -> None:
        """Any snapshot is a fold of a prefix of the stream, so two processes writing theirs in
        either order leave a correct one: no transaction is needed."""
        self.redis.set(self.snapshot_key, codec.dumps_bytes({"id": self._state_id,
                                                             "state": decider.snapshot(self._state)}))
        self._unsnapshotted = 0

    def act(self, command: decider.Command) -> list[dict[str, Any]]:
        """Decides on the state and appends the events, again if another append came between."""
        try:
            with self.redis.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        pipe.watch(self.events_key)
                        events = decider.decide(self.state(), command)
                        if not events:
                            pipe.unwatch()
                            return []
                        pipe.multi()
                        for event in events:
                            pipe.xadd(self.events_key, {"e": codec.dumps_bytes(event)})
                        pipe.execute()
                        return events
                    except redis.WatchError:
                        continue
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e

    def mute(self, me: Player, other: str, on: bool) -> None:
        if self.players.find(other) is None:
            from api.ratings.profiles import UnknownPlayerId
            raise UnknownPlayerId("No player has this id.")
        self.act(decider.Command("mute" if on else "unmute", me.id, _now(), player=other))

    def muted(self, player_id: str) -> list[str]:
        return sorted(b for a, b in self.state().mutes if a == player_id)

    # ---- who reads and writes a channel ------------------------------------------------------
    def game_channel(self, game_id: str, seated: bool, asked: str | None, writing: bool = False) -> str:
        """The game's channel this viewer reads (or writes): the table's for a seated player,
        the spectators' for anyone else; the other one only to read, once the game is over."""
        game = self.load(game_id)
        own = "table" if seated else "spectators"
        channel = asked or own
        if channel != own and (writing or not game.finished):
            raise ChatClosed("This chat is not open to you: the table's is its seated players', the spectators' "
                             "is everyone else's; both are open to read once the game is over.")
        return f"game:{game_id}:{channel}"

    def seated(self, game_id: str, player_id: str) -> bool:
        return self.load(game_id).seat_of_player(player_id) is not None

    # ---- writing -----------------------------------------------------------------------------

    def post(self, me: Player, channel: str, text: str, recipients: list[str], notice: dict[str, Any],
             now_ms: int | None = None) -> dict[str, Any]:
        """Checks, filters and appends a message; tells its recipients (those who muted or
        block the author excepted)."""
        now_ms = now_ms if now_ms is not None else _now()
        text = text.strip()
        if not text or len(text) > self.max_length:
            raise ValidationFailed(f"A message has 1 to {self.max_length} characters.")
        state = self.state()
        if decider.suspension(state, me.id, "chat", now_ms) is not None:
            raise ChatSuspended("A moderator suspended you from chat for now.")
        try:
            window = now_ms // (RATE_WINDOW_S * 1000)
            rate_key = f"{self.prefix}chat:{TAG}:rate:{me.id}:{window}"
            pipe = self.redis.pipeline(transaction=False)
            pipe.incr(rate_key)
            pipe.expire(rate_key, RATE_WINDOW_S * 2)
            sent, _ = pipe.execute()
            if sent > self.rate:
                raise ChatTooFast(f"At most {self.rate} messages every {RATE_WINDOW_S} seconds.",
                                  details={"retry_after": RATE_WINDOW_S - (now_ms // 1000) % RATE_WINDOW_S})
            shown, masked = self.words.apply(text)
            message: dict[str, Any] = {"from": me.id, "name": me.name, "text": shown, "at": now_ms}
            pipe = self.redis.pipeline(transaction=False)
            pipe.xadd(self.key(channel), {"e": codec.dumps_bytes(message)}, maxlen=CHANNEL_LENGTH, approximate=True)
            if masked:
                pipe.hincrby(self.filtered_key(), me.id, masked)
            message_id = pipe.execute()[0].decode()
            message = {"id": message_id, "channel": channel, **message}
            to = self.recipients(me.id, [r for r in recipients if r != me.id])
            if to:
                pipe = self.players.redis.pipeline(transaction=False)
                entry: dict[str, Any] = {**notice, "message": message, "at": now_ms}
                if notice.get("type") == "direct_message":  # what a push says: filtered as stored
                    entry["text"] = message["text"][:140]
                for r in to:
                    self.players.write_inbox(pipe, r, entry, now_ms)
                pipe.execute()
                if self.told is not None and notice.get("type") == "direct_message":
                    self.told(to)
                if self.news is not None and notice.get("type") == "direct_message":
                    self.news(to, "chat.direct_message", {"message": message, "from": notice["from"], "at": now_ms},
                              now_ms)
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
        return message

    def recipients(self, author: str, candidates: list[str]) -> list[str]:
        """Those of `candidates` who see the author's messages: no block either way, no mute."""
        blocked = set(self.blocks.conflicts(author, candidates))
        mutes = self.state().mutes
        return [c for c in dict.fromkeys(candidates) if c not in blocked and (c, author) not in mutes]

    def post_game(self, me: Player, game_id: str, text: str, asked: str | None = None) -> dict[str, Any]:
        channel = self.game_channel(game_id, self.seated(game_id, me.id), asked, writing=True)
        game = self.load(game_id)
        seated = [s["player"] for s in game.seats if s["player"]] if channel.endswith(":table") else []
        notice = {"type": "chat", "game_id": game_id, "game_type": game.definition.name}
        return self.post(me, channel, text, seated, notice)

    def post_direct(self, me: Player, other: str, text: str) -> dict[str, Any]:
        if self.players.find(other) is None:
            from api.ratings.profiles import UnknownPlayerId
            raise UnknownPlayerId("No player has this id.")
        if other == me.id:
            raise decider.SelfMute("You cannot message yourself.")
        from api.social.decider import NotAllowedByPlayer
        if not self.social.allows(other, "message", me.id):
            raise NotAllowedByPlayer("This player's settings do not let you message them.")
        notice = {"type": "direct_message", "from": {"id": me.id, "name": me.name}, "title": me.name}
        message = self.post(me, dm_channel(me.id, other), text, [other], notice)
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(self.conversations_key(me.id), {other: message["at"]})
        pipe.zadd(self.conversations_key(other), {me.id: message["at"]})
        pipe.execute()
        return message

    def post_group(self, me: Player, group_id: str, text: str) -> dict[str, Any]:
        self.require_member(group_id, me.id)
        notice = {"type": "chat", "group_id": group_id}
        return self.post(me, f"group:{group_id}", text, self.members(group_id), notice)

    def require_member(self, group_id: str, player_id: str) -> None:
        if not self.is_member(group_id, player_id):
            raise ChatClosed("Only the group's members read and write its chat.")

    # ---- reading -----------------------------------------------------------------------------
    def history(self, channel: str, viewer: str | None, after: str | None = None, before: str | None = None,
                limit: int = PAGE) -> dict[str, Any]:
        """A page of the channel as the viewer may see it: oldest first, from after `after`
        (resuming: no gap), or the newest before `before` (or the newest of all). `next` is the
        cursor to resume after (the last entry's id), `previous` to read back from."""
        limit = max(1, min(limit, MAX_PAGE))
        key = self.key(channel)
        try:
            if after is not None:
                raw = self.redis.xrange(key, f"({after}", "+", count=limit)
            elif before is not None and _is_first_id(before):
                raw = []  # nothing is before the first id (Redis refuses the interval)
            else:
                raw = list(reversed(self.redis.xrevrange(key, f"({before}" if before else "+", "-", count=limit)))
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
        except Exception as e:  # a malformed cursor
            raise ValidationFailed("A cursor is a message's id (`next` or `previous` of a page).") from e
        found = [{"id": i.decode(), "channel": channel, **codec.loads(f[b"e"])} for i, f in raw]
        shown = self.visible(found, viewer)
        return {"messages": shown, "next": found[-1]["id"] if found else after,
                "previous": found[0]["id"] if found else None}

    def live_page(self, channel: str, viewer: str | None, after: str, newest: str | None,
                  max_age_s: float = 0.2) -> dict[str, Any]:
        """What a live chat stream sends next: the messages after `after` as `history` says them,
        the read shared by this process's subscribers at one position (while `newest` holds),
        the state at most `max_age_s` old."""
        key = (channel, after)
        cached = self._pages.get(key)
        if cached is None or cached[0] != newest:
            raw = self.redis.xrange(self.key(channel), f"({after}", "+", count=MAX_PAGE)
            found = [{"id": i.decode(), "channel": channel, **codec.loads(f[b"e"])} for i, f in raw]
            if len(self._pages) > 10_000:
                self._pages.clear()
            self._pages[key] = cached = (newest, found)
        found = cached[1]
        return {"messages": self.visible(found, viewer, max_age_s), "next": found[-1]["id"] if found else after}

    def visible(self, messages: list[dict[str, Any]], viewer: str | None,
                max_age_s: float = 0.0) -> list[dict[str, Any]]:
        if not messages:
            return []
        state = self.state(max_age_s)
        hidden = decider.hidden(state)
        authors = sorted({m["from"] for m in messages})
        unseen: set[str] = set()
        if viewer is not None and authors:
            unseen = set(self.blocks.conflicts(viewer, authors)) | {a for a in authors if (viewer, a) in state.mutes}
        return [m for m in messages if f"{m['channel']}/{m['id']}" not in hidden and m["from"] not in unseen]

    def newest(self, channel: str, max_age_s: float = 0.2) -> str | None:
        """The channel's newest message id, read at most every `max_age_s` per channel and
        process: what a live chat stream's subscribers wait on (one read for all of them)."""
        now = time.monotonic()
        seen = self._newest.get(channel)
        if seen is not None and now - seen[0] < max_age_s:
            return seen[1]
        try:
            found = self.redis.xrevrange(self.key(channel), "+", "-", count=1)
        except UNAVAILABLE as e:
            raise StoreUnavailable(str(e)) from e
        newest = found[0][0].decode() if found else None
        self._newest[channel] = (now, newest)
        return newest

    def conversations(self, me: str, limit: int = 100) -> list[dict[str, Any]]:
        found = self.redis.zrevrange(self.conversations_key(me), 0, limit - 1, withscores=True)
        ids = [o.decode() for o, _ in found]
        people = self.players.find_many(ids)
        gone = set(self.blocks.conflicts(me, ids))
        return [{"player": {"id": o, "name": people[o].name if people.get(o) else None},  # type: ignore[union-attr]
                 "last_at": int(s), "channel": dm_channel(me, o)}
                for o, (_, s) in zip(ids, found) if o not in gone]

    def message(self, channel: str, message_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """A message and its context: CONTEXT messages each side."""
        key = self.key(channel)
        try:
            found = self.redis.xrange(key, message_id, message_id)
        except Exception as e:
            raise UnknownMessage("No message has this id in this channel.") from e
        if not found:
            raise UnknownMessage("No message has this id in this channel.")
        before = list(reversed(self.redis.xrevrange(key, f"({message_id}", "-", count=CONTEXT)))
        after = self.redis.xrange(key, f"({message_id}", "+", count=CONTEXT)
        def shown(rows: list[Any]) -> list[dict[str, Any]]:
            return [{"id": i.decode(), "channel": channel, **codec.loads(f[b"e"])} for i, f in rows]
        return shown(found)[0], {"before": shown(before), "after": shown(after)}

    # ---- reports and moderators' actions -----------------------------------------------------
    def report(self, me: Player, subject: dict[str, Any], reason: str) -> dict[str, Any]:
        context: dict[str, Any] = {}
        kind = subject["kind"]
        if kind == "message":
            if not self.can_read(subject["channel"], me.id):  # said alike: no probing of another's channel
                raise UnknownMessage("No message has this id in this channel.")
            message, around = self.message(subject["channel"], subject["id"])
            context = {"message": message, **around}
            if subject["channel"].startswith("game:"):
                context["game"] = subject["channel"].split(":")[1]
            subject = {**subject, "player": message["from"]}
        elif kind == "player":
            if self.players.find(subject["player"]) is None:
                from api.ratings.profiles import UnknownPlayerId
                raise UnknownPlayerId("No player has this id.")
        elif kind == "game":
            game = self.load(subject["game"])
            context = {"game": game.id, "version": game.version}
        report_id = uuid.uuid4().hex[:16]
        self.act(decider.Command("report", me.id, _now(), reason=reason, id=report_id, subject=subject,
                                 context=context))
        return self.shown_report(self.state().reports[report_id])

    def can_read(self, channel: str, player_id: str) -> bool:
        """Whether the player reads this channel now (what a report of its message needs)."""
        kind, _, rest = channel.partition(":")
        if kind == "dm":
            return player_id in rest.split(":")
        if kind == "group":
            return self.is_member(rest, player_id)
        game_id, _, side = rest.partition(":")
        try:
            self.game_channel(game_id, self.seated(game_id, player_id), side)
        except ChatClosed:
            return False
        return True

    def shown_report(self, report: dict[str, Any]) -> dict[str, Any]:
        shown = {"id": report["report"], "by": report["by"], "at": report["at"], "subject": report["subject"],
                 "reason": report["reason"], "context": report["context"],
                 "status": "resolved" if "resolution" in report else "open"}
        if "resolution" in report:
            r = report["resolution"]
            shown["resolution"] = {k: r[k] for k in ("outcome", "actions", "reason", "by", "at")}
        return shown

    def queue(self, status: str = "open") -> list[dict[str, Any]]:
        state = self.state()
        filtered = {k.decode(): int(v) for k, v in self.redis.hgetall(self.filtered_key()).items()}
        found = []
        for report in state.reports.values():
            shown = self.shown_report(report)
            if status != "all" and shown["status"] != status:
                continue
            subject_player = report["subject"].get("player")
            if subject_player:
                shown["filtered_words"] = filtered.get(subject_player, 0)
            found.append(shown)
        return sorted(found, key=lambda r: r["at"])

    def moderate(self, moderator: str, kind: str, reason: str, now_ms: int | None = None,
                 **fields: Any) -> dict[str, Any]:
        """A moderator's hide, suspend or undo: its event."""
        now_ms = now_ms if now_ms is not None else _now()
        if kind == "hide":
            channel, _, message_id = fields["message"].rpartition("/")
            self.message(channel, message_id)
        if kind == "suspend" and self.players.find(fields["player"]) is None:
            from api.ratings.profiles import UnknownPlayerId
            raise UnknownPlayerId("No player has this id.")
        action_id = fields.pop("id", None) or uuid.uuid4().hex[:16]
        events = self.act(decider.Command(kind, moderator, now_ms, reason=reason, id=action_id, **fields))
        return events[0]

    def resolve(self, moderator: str, report_id: str, outcome: str, actions: list[str], reason: str) -> dict[str, Any]:
        self.act(decider.Command("resolve", moderator, _now(), reason=reason, id=report_id, outcome=outcome,
                                 actions=tuple(actions)))
        report = self.state().reports[report_id]
        at = _now()
        self.players.write_inbox(self.players.redis, report["by"],
                                 {"type": "report_resolved", "report": report_id, "outcome": outcome, "at": at}, at)
        return self.shown_report(report)

    def suspended(self, player_id: str, scope: str, now_ms: int | None = None) -> dict[str, Any] | None:
        return decider.suspension(self.state(), player_id, scope, now_ms if now_ms is not None else _now())

    def require_can_play(self, player_id: str, now_ms: int | None = None) -> None:
        """Refuses (403 play_suspended) a player a moderator suspended from play, while it lasts."""
        if self.suspended(player_id, "play", now_ms) is not None:
            raise PlaySuspended("A moderator suspended you from play for now.")

    def filtered(self, player_id: str) -> int:
        return int(self.redis.hget(self.filtered_key(), player_id) or 0)


def _is_first_id(cursor: str) -> bool:
    """`0-0` (however written: `00-0`), the id before every message."""
    ms, _, seq = cursor.partition("-")
    return ms.isdigit() and seq.isdigit() and int(ms) == 0 and int(seq) == 0
