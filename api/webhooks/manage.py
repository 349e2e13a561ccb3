"""The webhooks endpoints' application side (no Flask): make, list, delete subscriptions, read
their attempts, ask for a delivery again. Who owns what is decided here: today a game's table
token owns subscriptions to that game; a player's subscriptions ("games": "mine") slot in as
another Owner kind."""
from __future__ import annotations

import time
from typing import Callable, Optional

from ..errors import ApiError, InvalidToken, UnknownGame, ValidationFailed
from ..seats import TABLE
from . import messages
from .addresses import AddressRefused, Policy, resolve
from .signing import new_secret, secret_problem
from .subscriptions import Owner, Progress, Subscription, SubscriptionStore

DEFAULT_MAX_PER_OWNER = 10


class UnknownWebhook(ApiError):
    status, code = 404, "unknown_webhook"


class UnknownDelivery(ApiError):
    status, code = 404, "unknown_delivery"


class TableTokenRequired(ApiError):
    status, code = 403, "table_token_required"


class GameNotYours(ApiError):
    status, code = 403, "game_not_yours"


class Webhooks:
    def __init__(self, subscriptions: SubscriptionStore, service, ensure: Callable[[str, str], object],
                 redeliver: Callable[[str, str], None], policy: Optional[Policy] = None,
                 max_per_owner: int = DEFAULT_MAX_PER_OWNER):
        self.subs = subscriptions
        self.service = service  # the GameService: games, seats
        self.ensure = ensure
        self.redeliver = redeliver
        self.policy = policy or Policy.from_env()
        self.max_per_owner = max_per_owner

    # ---- who asks ------------------------------------------------------------------------
    def owner_of_token(self, token: str) -> Owner:
        """A game's table token owns subscriptions to that game (a seat token does not: it
        is one person's, and an integration runs the table)."""
        game_id = token.split(".", 1)[0]
        try:
            holder = self.service.seat_for_token(game_id, token)
        except UnknownGame:
            raise InvalidToken("This token is no game's.") from None
        if holder != TABLE:
            raise TableTokenRequired("Webhooks are made with the game's table token (or, soon, a player's key).")
        return Owner("game", game_id)

    # ---- the endpoints -------------------------------------------------------------------
    def create(self, owner: Owner, body: dict) -> dict:
        games = self._games(owner, body.get("games"))
        seat = body.get("seat")
        if seat is not None:
            self.service.resolve_seat(games[0], TABLE, seat)  # a person seat of the game, or 403
        secret = body.get("secret") or new_secret()
        problem = secret_problem(secret)
        if problem:
            raise ValidationFailed(problem, details={"fields": {"secret": [problem]}})
        try:
            resolve(body["url"], self.policy)
        except AddressRefused as e:
            raise ValidationFailed(str(e), code="webhook_url_refused", status=422) from None
        starts = {}
        for game_id in games:
            game = self.service.load(game_id)
            setup = int(game.meta["setup_version"])
            # A game that has not moved yet still owes its `game.started`.
            starts[game_id] = setup if game.version == setup else game.version + 1
        sub = Subscription(self.subs.new_id(), str(owner), body["url"], list(dict.fromkeys(body["events"])), games,
                           seat, secret, int(time.time() * 1000))
        if not self.subs.add(sub, starts, self.max_per_owner):
            raise ApiError(f"At most {self.max_per_owner} webhooks per owner; delete one first.",
                           code="too_many_webhooks", status=422, details={"limit": self.max_per_owner})
        return {**sub.public(), "secret": secret}

    def _games(self, owner: Owner, asked) -> list:
        if asked == "mine":
            if owner.kind != "player":
                raise ValidationFailed('"games": "mine" needs a player\'s key; a table token names its game.',
                                       code="player_required", status=422)
            raise ValidationFailed("Players' webhooks are not available yet.", code="player_required", status=422)
        if asked is None:
            asked = [owner.id] if owner.kind == "game" else []
        if not asked:
            raise ValidationFailed("Name the games to hear of.", details={"fields": {"games": ["Empty."]}})
        if owner.kind == "game" and any(g != owner.id for g in asked):
            raise GameNotYours("A table token subscribes to its own game only.")
        return list(dict.fromkeys(asked))

    def list(self, owner: Owner) -> list[dict]:
        return [s.public() for s in self.subs.owned(owner)]

    def _owned(self, owner: Owner, sub_id: str) -> Subscription:
        sub = self.subs.get(sub_id) if sub_id.startswith("wh_") and len(sub_id) < 40 else None
        if sub is None or sub.owner != str(owner):
            raise UnknownWebhook(f"You have no webhook '{sub_id[:40]}'.")
        return sub

    def delete(self, owner: Owner, sub_id: str) -> None:
        self.subs.remove(self._owned(owner, sub_id))

    def deliveries(self, owner: Owner, sub_id: str, limit: int = 100) -> list[dict]:
        return self.subs.attempts(self._owned(owner, sub_id).id, limit)

    def retry(self, owner: Owner, sub_id: str, delivery: str) -> dict:
        """The next pending message is tried now (a disabled subscription is enabled again);
        one already delivered is sent once more."""
        sub = self._owned(owner, sub_id)
        parsed = messages.parse_message_id(delivery)
        if parsed is None or parsed[0] not in sub.games or parsed[2] not in sub.events:
            raise UnknownDelivery(f"Webhook {sub.id} has no delivery '{delivery[:80]}'.")
        game_id, version, _ = parsed
        game = self.service.load(game_id)
        if not int(game.meta["setup_version"]) <= version <= game.version:
            raise UnknownDelivery(f"Webhook {sub.id} has no delivery '{delivery}'.")
        if sub.status != "active":
            sub.status, sub.disabled_at, sub.disabled_reason = "active", None, None
            self.subs.update(sub)
        progress = self.subs.progress(game_id, sub.id) or Progress(version)
        if progress.next_at or progress.failing_since:  # waiting out a back-off: try now
            progress.next_at, progress.failing_since = 0, None
            self.subs.save_progress(game_id, sub.id, progress)
            self.subs.retry_taken(sub.id, game_id)
        if version < progress.version:
            self.redeliver(sub.id, delivery)  # delivered already: once more, as asked
        self.ensure(sub.id, game_id)
        return {"delivery": delivery, "status": "queued"}
