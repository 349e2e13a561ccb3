"""What a subscription is told of a game: messages derived from the game's events, the truth.

For each event after the setup, in order: `game.move` (the event as the subscription's viewer
may see it: its seat's, or a spectator's; everyone's once the game is over), then
`game.finished` (with the result) if the event ended the game, then `game.your_turn` if it
made a seat of the subscription's newly one to act. The last setup event brings
`game.started`. A rated game's last message, `game.rated` (each seat's rating before and
after), follows its end once the ratings' ledger has counted it (the reconciler's pass, in the
order games ended: api/ratings/ledger.py): its place is the version after the game's last
(RATED_PLACE), and its id names the game's last version. A message's id (its `webhook-id`, the same on every attempt) is
`<game>.<version>.<kind>`; a subscription takes the kinds it asked for, in this order, so its
progress is a (version, index) pair and its messages are the same whenever they are derived.

The viewer: a table token's subscription sees as its `seat` (or a spectator); a player's sees as
the seat the player sits in at that event, hears `game.your_turn` of that seat only, and hears
nothing of a game at an event where the player sits in no seat (it left before the start).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from api.games import presenting, words
from api.games.callers import people_to_act
from api.games.repository import Game
from api.platform import events as platform_events
from api.ratings.standings import game_unrated_reason
from api.webhooks.subscriptions import NEWS_KINDS, NEWS_STREAM, RATING_CHANGED, RATING_STREAM
from events import codec
from events.store import EventStore

if TYPE_CHECKING:
    from api.games.repository import GameRepository
    from api.webhooks.subscriptions import Subscription
    from events.store import StoredEvent

KINDS = ("game.started", "game.move", "game.finished", "game.your_turn", "game.rated")
# A player's re-ratings (issue 50: a moderator voided or restored someone it played): not a game's
# news but a stream of the player's own, `~rating.<player id>`, delivered to its "mine"
# subscriptions that ask for it, as a game's are, its versions the places in the player's
# re-rating log (api/moderation/service.py), each message one moderator's action.
# A player's news (api/webhooks/news.py: tournaments, challenges, direct messages), under
# `~news.<player id>` as its re-ratings are.
SUBSCRIBABLE = (*KINDS, RATING_CHANGED, *NEWS_KINDS)
RatingLog = Callable[[str, int], list[dict[str, Any]]]  # (player, from the place n on) -> its entries
NewsLog = Callable[[str, int], list[tuple[int, dict[str, Any]]]]  # (player, from place n) -> [(place, entry)]
BATCH_EVENTS = 50
RATED_PLACE = 1  # game.rated's place: the game's last version + 1 (nothing else is there)
ChangesOf = Callable[[str], list[Any] | None]  # a game's counted rating changes (Ledger.game_changes)


@dataclass(frozen=True)
class Message:
    game_id: str
    version: int
    index: int  # among the subscription's messages at this version
    kind: str
    at: int  # ms: when the event was appended
    body: str  # the JSON delivered (the same on every attempt)

    @property
    def id(self) -> str:
        shown = self.version - RATED_PLACE if self.kind == "game.rated" else self.version
        return message_id(self.game_id, shown, self.kind)


def place_of(version: int, kind: str) -> int:
    """Where the message named (version, kind) sits in a subscription's order."""
    return version + RATED_PLACE if kind == "game.rated" else version


def message_id(game_id: str, version: int, kind: str) -> str:
    return f"{game_id}.{version}.{kind.removeprefix('game.')}"


def parse_message_id(text: str) -> tuple[str, int, str] | None:
    """(game, version, kind) of a message id, or None."""
    parts = text.rsplit(".", 2)
    if len(parts) != 3 or not parts[1].isdigit() or f"game.{parts[2]}" not in KINDS:
        return None
    return parts[0], int(parts[1]), f"game.{parts[2]}"


def parse_news_id(text: str) -> tuple[str, int, str] | None:
    """(stream, place, kind) of a player's news message id, `~news.<player>.<place>.<kind>`
    (what Message.id names it), or None."""
    if not text.startswith(NEWS_STREAM):
        return None
    for kind in NEWS_KINDS:
        head, dot, tail = text.rpartition(f".{kind}")
        if dot and not tail:
            stream, _, place = head.rpartition(".")
            player = stream[len(NEWS_STREAM):]
            if player and "." not in player and place.isdigit() and int(place) > 0:
                return stream, int(place), kind
    return None


def _player_of(sub: Subscription) -> str | None:
    kind, _, ident = sub.owner.partition(":")
    return ident if kind == "player" else None


def seat_of(sub: Subscription, game: Game) -> int | None:
    """The seat whose view the subscription receives in the game (None: a spectator's)."""
    player = _player_of(sub)
    return sub.seat if player is None else game.seat_of_player(player)


def _seats_of(sub: Subscription, game: Game) -> set[int]:
    """The seats whose turn a subscription hears of: its seat, or (a table token's subscription
    without one) every person seat."""
    seat = seat_of(sub, game)
    if seat is not None:
        return {seat}
    if _player_of(sub) is not None:
        return set()
    return {i for i, s in enumerate(game.seats) if not s.get("bot")}


def _hears(sub: Subscription, game: Game) -> bool:
    """A player's subscription hears of a game only while the player sits in it."""
    return _player_of(sub) is None or seat_of(sub, game) is not None


def _envelope(kind: str, at: int, data: dict[str, Any]) -> str:
    stamp = datetime.fromtimestamp(at / 1000, tz=UTC).isoformat().replace("+00:00", "Z")
    return codec.dumps_bytes({"type": kind, "timestamp": stamp, "data": data}).decode()


def started(sub: Subscription, game: Game, at: int) -> list[tuple[str, dict[str, Any]]]:
    if not _hears(sub, game):
        return []
    found = [("game.started", {"game_id": game.id, "game_type": game.definition.name, "version": game.version,
                               "seats": [{"seat": i, "name": s.get("name") or s.get("bot"), "bot": s.get("bot")}
                                         for i, s in enumerate(game.seats)],
                               "to_act": game.actors(), "at": at})]
    newly = sorted(set(people_to_act(game)) & _seats_of(sub, game))
    if newly:
        found.append(("game.your_turn", {"game_id": game.id, "version": game.version, "seats": newly, "at": at}))
    return found


def after_event(sub: Subscription, before: Game, after: Game, event: StoredEvent) -> list[tuple[str, dict[str, Any]]]:
    if not _hears(sub, after):
        return []
    viewer = presenting.viewer_for(after, seat_of(sub, after))
    shown = presenting.present(after, viewer, event.type, event.data, event.version, event.actor, event.at)
    words.say_events(after, sub.lang, [shown])  # in the subscription's language
    found = [("game.move", {"game_id": after.id, "version": after.version, "event": shown,
                            "to_act": after.actors()})]
    if after.finished and not before.finished:
        found.append(("game.finished", {"game_id": after.id, "version": after.version, "status": after.status,
                                        "result": after.result, "result_words": words.result(after, sub.lang),
                                        "rated": to_be_rated(after), "unrated_reason": game_unrated_reason(after),
                                        "at": event.at}))
    mine = _seats_of(sub, after)
    newly = sorted((set(people_to_act(after)) & mine) - set(people_to_act(before)))
    if newly:
        found.append(("game.your_turn", {"game_id": after.id, "version": after.version, "seats": newly,
                                         "at": event.at}))
    return found


def to_be_rated(game: Game) -> bool:
    """Whether the ended game is rated: logged for the harvest (not private) and rated by its
    summary (api/ratings/standings.py)."""
    return game.finished and game_unrated_reason(game) is None


def rated(sub: Subscription, game: Game, changes_of: ChangesOf) -> tuple[list[tuple[str, dict[str, Any]]], bool]:
    """The messages at the ended game's RATED_PLACE and whether that place is settled (False:
    the game is rated but not counted yet: wait)."""
    if "game.rated" not in sub.events or not _hears(sub, game) or not to_be_rated(game):
        return [], True
    changes = changes_of(game.id)
    if changes is None:
        return [], False
    return [("game.rated", {"game_id": game.id, "game_type": game.definition.name, "version": game.version,
                            "ratings": changes, "at": game.last_at})], True


def advance(game: Game, event: StoredEvent) -> Game:
    state, platform = platform_events.fold_stored(game.definition, [event], game.state, game.platform)
    return replace(game, version=event.version, state=state, platform=platform, last_at=event.at)


def pending(games: GameRepository, store: EventStore, sub: Subscription, game_id: str, version: int, index: int,
            limit: int = BATCH_EVENTS, changes_of: ChangesOf = lambda _: None) -> tuple[list[Message], int | None]:
    """The subscription's messages from (version, index) on, over at most `limit` events, and
    the last version they cover (None: nothing new). `games`: a GameRepository; `store`: the
    event store; `changes_of`: the ratings' counted changes of a game."""
    current = games.load(game_id)
    setup = current.setup_version
    if setup is None:
        return [], None  # waiting for people: nothing to tell before its setup
    version = max(version, setup)
    if version > current.version:
        place = current.version + RATED_PLACE
        if not current.finished or version != place:
            return [], None
        if index > 0:
            return [], place  # its message sent: passed
        kinds, settled = rated(sub, current, changes_of)
        if not settled:
            return [], None
        at = current.last_at or 0
        return [Message(game_id, place, 0, k, at, _envelope(k, at, d)) for k, d in kinds], place
    found: list[Message] = []

    def keep(v: int, at: int, kinds: list[tuple[str, dict[str, Any]]]) -> None:
        chosen = [(k, d) for k, d in kinds if k in sub.events]
        for i, (kind, data) in enumerate(chosen):
            if (v, i) >= (version, index):
                found.append(Message(game_id, v, i, kind, at, _envelope(kind, at, data)))

    if version == setup:
        before = games.at_version(game_id, setup, current)
        first = store.read_range(game_id, setup, setup)
        at = first[0].at if first else 0
        keep(setup, at, started(sub, before, at))
    else:
        before = games.at_version(game_id, version - 1, current)
    last = before.version if version == setup else None
    for event in store.read(game_id, after=before.version, limit=limit):
        after = advance(before, event)
        keep(event.version, event.at, after_event(sub, before, after, event))
        before = after
        last = event.version
    return found, last


def rating_stream(player_id: str) -> str:
    """The id a player's re-ratings are delivered under (beside its games' ids: no game's starts so)."""
    return f"{RATING_STREAM}{player_id}"


def is_rating_stream(stream_id: str) -> bool:
    return stream_id.startswith(RATING_STREAM)


def rating_pending(sub: Subscription, stream_id: str, version: int, log: RatingLog) -> tuple[list[Message], int | None]:
    """The subscription's `rating.changed` messages from the player's re-rating `version` (its
    place in the log, from 1) on, and the last place they cover (None: nothing new). Each says
    the player's own ratings before and after, per game type, and why (the moderator's event
    type), never who was voided."""
    player = stream_id[len(RATING_STREAM):]
    if RATING_CHANGED not in sub.events or _player_of(sub) != player:
        return [], None
    found = log(player, version)
    messages = [Message(stream_id, version + i, 0, RATING_CHANGED, entry["at"],
                        _envelope(RATING_CHANGED, entry["at"], {"player": player, **entry}))
                for i, entry in enumerate(found)]
    return messages, (version + len(found) - 1) if found else None


def is_player_stream(stream_id: str) -> bool:
    """A player's re-ratings or news: no game (its messages derived from a log, not a stream)."""
    return stream_id.startswith((RATING_STREAM, NEWS_STREAM))


def news_pending(sub: Subscription, stream_id: str, version: int, log: NewsLog) -> tuple[list[Message], int | None]:
    """The subscription's messages of the player's news from place `version` on (the kinds it
    asked for; the others passed over), and the last place read (None: nothing new)."""
    player = stream_id[len(NEWS_STREAM):]
    if _player_of(sub) != player:
        return [], None
    found = log(player, version)
    messages = [Message(stream_id, place, 0, entry["kind"], entry["at"],
                        _envelope(entry["kind"], entry["at"], entry["data"]))
                for place, entry in found if entry["kind"] in sub.events]
    return messages, found[-1][0] if found else None
