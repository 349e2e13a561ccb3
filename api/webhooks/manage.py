"""The webhooks endpoints' application side (no Flask): make, list, delete subscriptions, read
their attempts, ask for a delivery again. Who owns what is decided here: a game's table token
owns subscriptions to that game; a player's key owns subscriptions to games that player sits
in (named, or "mine": every one, those joined later included). An owner sees, deletes and
retries only its own: another owner's subscription answers 404, as an unknown one."""
from __future__ import annotations

import builtins
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from api.errors import ApiError, Code, InvalidToken, UnknownGame, ValidationFailed
from api.games.callers import TABLE, is_player_credential, is_player_key
from api.games.repository import Game
from api.webhooks import messages
from api.webhooks.addresses import AddressRefused, Policy, resolve
from api.webhooks.signing import new_secret, secret_problem
from api.webhooks.subscriptions import MINE, NEWS_KINDS, NEWS_STREAM, Owner, Subscription, SubscriptionStore
from api.words import DEFAULT as DEFAULT_LANGUAGE

if TYPE_CHECKING:
    from api.games.service import GameService

DEFAULT_MAX_PER_OWNER = 10
# A new "mine" subscription covers the player's most recently active games up to this many
# (a player's games list keeps 1000; the unfinished ones are the recent ones).
MINE_SCAN = 200


class UnknownWebhook(ApiError):
    status, code = 404, Code.UNKNOWN_WEBHOOK


class UnknownDelivery(ApiError):
    status, code = 404, Code.UNKNOWN_DELIVERY


class TableTokenRequired(ApiError):
    status, code = 403, Code.TABLE_TOKEN_REQUIRED


class GameNotYours(ApiError):
    status, code = 403, Code.GAME_NOT_YOURS


class Webhooks:
    def __init__(self, subscriptions: SubscriptionStore, service: GameService, ensure: Callable[[str, str], object],
                 redeliver: Callable[[str, str], None], policy: Policy | None = None,
                 max_per_owner: int = DEFAULT_MAX_PER_OWNER, news_log: messages.NewsLog | None = None):
        self.subs = subscriptions
        self.service = service  # the GameService: games, seats
        self.ensure = ensure
        self.redeliver = redeliver
        self.policy = policy or Policy.from_env()
        self.max_per_owner = max_per_owner
        self.news_log = news_log  # a player's news (api/webhooks/news.py), for its deliveries' retries

    # ---- who asks ------------------------------------------------------------------------
    def owner_of_token(self, token: str) -> Owner:
        """A player's key owns that player's subscriptions; a game's table token owns
        subscriptions to that game (a seat token does not: it is one seat's, and an integration
        runs the table or acts for a player)."""
        if is_player_credential(token):
            if self.service.players is None:
                raise InvalidToken("This server has no players.")
            return Owner("player", self.service.players.authenticate(token).id)
        game_id = token.split(".", 1)[0]
        try:
            holder = self.service.seat_for_token(game_id, token)
        except UnknownGame:
            raise InvalidToken("This token is no game's.") from None
        if holder != TABLE:
            raise TableTokenRequired("Webhooks are made with the game's table token or a player's key, "
                                     "not a seat's token.")
        return Owner("game", game_id)

    # ---- the endpoints -------------------------------------------------------------------
    def create(self, owner: Owner, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
        """`key`: the credential the request came with; a player key's subscription records it
        and ends with it (revoked or replaced: `end_key`, and the senders' check)."""
        games = self._games(owner, body.get("games"))
        news = sorted(set(body["events"]) & set(NEWS_KINDS))
        if news and games != MINE:  # a player's news is not a game's: only its "mine" subscriptions hear it
            raise ValidationFailed(f'{", ".join(news)}: a player\'s news, told to its "games": "mine" '
                                   "subscriptions only.", code=Code.PLAYER_REQUIRED, status=422)
        seat = body.get("seat")
        if seat is not None and owner.kind == "player":
            raise ValidationFailed("A player's webhooks see as the seat it sits in; `seat` is for table tokens.",
                                   details={"fields": {"seat": ["Only with a table token."]}})
        if seat is not None:
            self.service.resolve_seat(games[0], TABLE, seat)  # a person seat of the game, or 403
        secret = body.get("secret") or new_secret()
        problem = secret_problem(secret)
        if problem:
            raise ValidationFailed(problem, details={"fields": {"secret": [problem]}})
        try:
            resolve(body["url"], self.policy)
        except AddressRefused as e:
            raise ValidationFailed(str(e), code=Code.WEBHOOK_URL_REFUSED, status=422) from None
        key_hash = key_id = None
        if owner.kind == "player" and is_player_key(key):
            players = self.service.players
            key_hash, key_id = players.maker_digest(owner.id, key), players.key_id(owner.id, key)
        sub = Subscription(self.subs.new_id(), str(owner), body["url"], list(dict.fromkeys(body["events"])),
                           MINE if games == MINE else games, seat, secret, int(time.time() * 1000),
                           lang=body.get("lang") or DEFAULT_LANGUAGE, key_hash=key_hash, key_id=key_id)
        # A "mine" subscription is stored (and so found by the after-append step of a game the
        # player joins) before the player's games are read: a game joined meanwhile is found
        # by one or the other, and covering it twice changes nothing.
        covered = {} if games == MINE else {g: start_version(self.service.load(g)) for g in games}
        if not self.subs.add(sub, covered, self.max_per_owner):
            raise ApiError(f"At most {self.max_per_owner} webhooks per owner; delete one first.",
                           code=Code.TOO_MANY_WEBHOOKS, status=422, details={"limit": self.max_per_owner})
        if games == MINE:
            for game in self._players_games(owner.id):
                self.subs.cover(sub, game.id, start_version(game))
        return {**sub.public(), "secret": secret}

    def _players_games(self, player_id: str) -> list[Any]:
        """The unfinished games the player sits in (of its MINE_SCAN most recently active)."""
        found = []
        for game_id, _ in self.service.players.games_page(player_id, None, MINE_SCAN):
            try:
                game = self.service.load(game_id)
            except UnknownGame:
                continue
            if not game.finished and game.seat_of_player(player_id) is not None:
                found.append(game)
        return found

    def _games(self, owner: Owner, asked: str | list[str] | None) -> str | list[str]:
        if asked == MINE:
            if owner.kind != "player":
                raise ValidationFailed('"games": "mine" needs a player\'s key; a table token names its game.',
                                       code=Code.PLAYER_REQUIRED, status=422)
            return MINE
        if asked is None:
            asked = [owner.id] if owner.kind == "game" else []
        if not asked:
            raise ValidationFailed('Name the games to hear of, or "mine".', details={"fields": {"games": ["Empty."]}})
        asked = list(dict.fromkeys(asked))
        if owner.kind == "game" and any(g != owner.id for g in asked):
            raise GameNotYours("A table token subscribes to its own game only.")
        if owner.kind == "player":
            for game_id in asked:
                try:
                    seated = self.service.load(game_id).seat_of_player(owner.id) is not None
                except UnknownGame:
                    seated = False
                if not seated:  # an unknown game and another's answer alike: nothing to learn here
                    raise GameNotYours(f"You sit in no seat of game '{game_id[:64]}'.")
        return asked

    def list(self, owner: Owner) -> list[dict[str, Any]]:
        """The owner's subscriptions; one whose key has ended (its removal at the revocation did
        not run) is removed as it is met."""
        shown = []
        for sub in self.subs.owned(owner):
            if self.subs.key_ended(sub):
                self.subs.remove(sub)
            else:
                shown.append(sub.public())
        return shown

    def _owned(self, owner: Owner, sub_id: str) -> Subscription:
        sub = self.subs.get(sub_id) if sub_id.startswith("wh_") and len(sub_id) < 40 else None
        if sub is None or sub.owner != str(owner):
            raise UnknownWebhook(f"You have no webhook '{sub_id[:40]}'.")
        return sub

    def delete(self, owner: Owner, sub_id: str) -> None:
        self.subs.remove(self._owned(owner, sub_id))

    def end_key(self, player_id: str, key_hash: str) -> int:
        """Removes the player's subscriptions made with the key of this hash (revoked or
        replaced); how many."""
        ended = [s for s in self.subs.owned(Owner("player", player_id)) if s.key_hash == key_hash]
        for sub in ended:
            self.subs.remove(sub)
        return len(ended)

    # builtins.list: in this class, `list` is the method above
    def deliveries(self, owner: Owner, sub_id: str, limit: int = 100) -> builtins.list[dict[str, Any]]:
        return self.subs.attempts(self._owned(owner, sub_id).id, limit)

    def retry(self, owner: Owner, sub_id: str, delivery: str) -> dict[str, Any]:
        """The next pending message is tried now (a disabled subscription is enabled again);
        one already delivered is sent once more."""
        sub = self._owned(owner, sub_id)
        news = messages.parse_news_id(delivery)
        if news is not None:  # a player's news (tournaments, challenges, direct messages): its log
            game_id, version, kind = news
            if not self._news_kept(sub, game_id, version, kind):
                raise UnknownDelivery(f"Webhook {sub.id} has no delivery '{delivery[:80]}'.")
        else:
            parsed = messages.parse_message_id(delivery)
            if parsed is None or parsed[2] not in sub.events or not self.subs.covered(sub, parsed[0]):
                raise UnknownDelivery(f"Webhook {sub.id} has no delivery '{delivery[:80]}'.")
            game_id, version, kind = parsed
            try:
                game = self.service.load(game_id)
            except UnknownGame:
                raise UnknownDelivery(f"Webhook {sub.id} has no delivery '{delivery[:80]}'.") from None
            if game.setup_version is None or not game.setup_version <= version <= game.version:
                raise UnknownDelivery(f"Webhook {sub.id} has no delivery '{delivery}'.")
        if sub.status != "active":
            sub.status, sub.disabled_at, sub.disabled_reason = "active", None, None
            self.subs.update(sub)
            if sub.mine:  # the games the player joined while it was disabled, from now on
                for joined in self._players_games(owner.id):
                    self.subs.cover(sub, joined.id, start_version(joined))
        progress = self.subs.progress(game_id, sub.id)
        if progress is None:  # a finished game whose progress expired: only this message, again
            self.redeliver(sub.id, delivery)
            return {"delivery": delivery, "status": "queued"}
        if progress.next_at or progress.failing_since:  # waiting out a back-off: try now
            progress.next_at, progress.failing_since = 0, None
            self.subs.save_progress(game_id, sub.id, progress)
            self.subs.retry_taken(sub.id, game_id)
        if messages.place_of(version, kind) < progress.version:
            self.redeliver(sub.id, delivery)  # delivered already: once more, as asked
        self.ensure(sub.id, game_id)
        return {"delivery": delivery, "status": "queued"}

    def _news_kept(self, sub: Subscription, stream_id: str, place: int, kind: str) -> bool:
        """Whether the player's news at `place` is still kept, of `kind`, a kind the subscription
        asked for, and the subscription's own player's."""
        if self.news_log is None or kind not in sub.events or not self.subs.covers(sub, stream_id):
            return False
        found = self.news_log(stream_id[len(NEWS_STREAM):], place)
        return bool(found) and found[0][0] == place and found[0][1].get("kind") == kind


def start_version(game: Game) -> int:
    """Where a new subscription starts in a game: at its setup if it has not moved since (it
    still owes its `game.started`; 0 for a game waiting for people: its setup is to come),
    else after its newest event."""
    setup = game.setup_version
    if setup is None:
        return 0
    return setup if game.version == setup else game.version + 1
