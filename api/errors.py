"""Typed errors of the application, each with an HTTP status and a stable machine code, and the
catalogue of every code the API answers (`Code`): each with its statuses and when it is answered.

The API maps the errors to application/problem+json in one place (api/http/problems.py); workers
read them as ordinary exceptions. docs/errors.md is written from this catalogue
(tools/api_reference.py), and a test (tests/api/test_error_codes.py) holds the raisers, the docs
and openapi.yaml to it.

The games' own refusals are not here: `decide`, `setup` and `check_options` raise `MoveRejected`
(domain/contract.py) with each game's codes (`not_your_turn`, `cannot_afford`, ...), which
`IllegalMove` (422) and `ValidationFailed` (400) carry out unchanged.
"""
from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from api.words import Wording

ANY_STATUS: tuple[int, ...] = ()  # a code answered with whatever status the HTTP server chose


class Code(StrEnum):
    """A problem's `code`: the string the API sends, its statuses, and when it is answered."""

    statuses: tuple[int, ...]
    when: str

    def __new__(cls, value: str, statuses: tuple[int, ...], when: str) -> Code:
        member = str.__new__(cls, value)
        member._value_ = value
        member.statuses = statuses
        member.when = when
        return member

    # ---- the request itself
    BAD_REQUEST = "bad_request", (400,), "the HTTP request is malformed (its request line, a header, a chunk)"
    MALFORMED_JSON = "malformed_json", (400,), "the body is not valid JSON"
    TOO_DEEPLY_NESTED = "too_deeply_nested", (400,), "the JSON body nests deeper than 32 levels"
    VALIDATION_ERROR = "validation_error", (400,), "a field of the body or the query is wrong (`details.fields`)"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type", (415,), "the body is not sent as `application/json`"
    BODY_TOO_LARGE = "body_too_large", (413,), "the body is larger than 64 KiB"
    URI_TOO_LONG = "uri_too_long", (414,), "the request line is longer than 4,094 bytes"
    HEADER_FIELDS_TOO_LARGE = "header_fields_too_large", (431,), "the header fields are too large or too many"
    EXPECTATION_FAILED = "expectation_failed", (417,), "an `Expect` header the server does not meet"
    NOT_IMPLEMENTED = "not_implemented", (501,), "a transfer coding the server does not support"
    FORBIDDEN = "forbidden", (403,), "the HTTP server refused the request before the application read it"
    NOT_FOUND = "not_found", (404,), "no such path"
    METHOD_NOT_ALLOWED = "method_not_allowed", (405,), "the path has no such method (`Allow` names its methods)"
    HTTP_ERROR = "http_error", ANY_STATUS, "any other error the HTTP layer answers itself"
    RATE_LIMITED = "rate_limited", (429,), "a request budget is spent (`details.ratelimit`, `Retry-After`)"
    # ---- who is asking
    TOKEN_REQUIRED = "token_required", (401,), "the request needs a seat's token (or a player's key) and has none"
    INVALID_TOKEN = "invalid_token", (401,), "the token is no seat's of this game (or no game's)"
    INVALID_PLAYER_KEY = "invalid_player_key", (401,), "the player key is unknown, revoked, expired or rotated"
    INVALID_TICKET = "invalid_ticket", (401,), "the stream ticket is unknown, used or expired"
    SEAT_NOT_YOURS = "seat_not_yours", (403,), "the token does not hold the seat asked for, or sits in no seat"
    SEAT_REQUIRED = "seat_required", (400,), "a table token must name its seat with `?seat=N`"
    INVALID_INVITE = "invalid_invite", (403,), "an invite seat claimed with a wrong or missing invite code"
    INSUFFICIENT_SCOPE = "insufficient_scope", (403,), \
        "the credential lacks a scope the operation needs (`details.missing`; `WWW-Authenticate` names them)"
    # ---- a player's keys and sign-in (issue 36)
    UNKNOWN_KEY = "unknown_key", (404,), "the player has no key of this id"
    TOO_MANY_KEYS = "too_many_keys", (409,), "the player holds its most keys (20): revoke one first"
    TOO_MANY_TOKENS = "too_many_tokens", (409,), "the player holds its most access tokens (20): revoke one first"
    UNKNOWN_TOKEN = "unknown_token", (404,), "the player has no personal access token of this id"
    TOO_MANY_APPS = "too_many_apps", (409,), \
        "the player registered its most apps (10), or authorised its most at once (20): remove one first"
    UNKNOWN_APP = "unknown_app", (404,), "the player has no app (or authorised app) of this id"
    INVALID_RECOVERY_CODE = "invalid_recovery_code", (401,), "the recovery code is unknown or already used"
    TOKEN_MALFORMED = "token_malformed", (401,), \
        "`Authorization` is not `Bearer <token>` (or too long); where a player's key is asked for, a token that " \
        "is no player's key (`pk.`) nor a readable identity token (a JWT with `sub`, `exp`)"
    TOKEN_EXPIRED = "token_expired", (401,), "the identity token's `exp` has passed"
    TOKEN_NOT_YET_VALID = "token_not_yet_valid", (401,), "the identity token's `nbf` (or `iat`) is still ahead"
    TOKEN_WRONG_AUDIENCE = "token_wrong_audience", (401,), "the identity token's `aud` is not this server's"
    TOKEN_UNKNOWN_ISSUER = "token_unknown_issuer", (401,), "the identity token's issuer is not one `OIDC_ISSUERS` names"
    TOKEN_BAD_SIGNATURE = "token_bad_signature", (401,), "the identity token's signature does not verify"
    ISSUER_UNAVAILABLE = "issuer_unavailable", (503,), "the identity provider's keys cannot be read just now"
    IDENTITY_TAKEN = "identity_taken", (409,), "the identity already signs in another player"
    UNKNOWN_IDENTITY = "unknown_identity", (404,), "the player has no linked identity of this id"
    PASSKEY_REFUSED = "passkey_refused", (401, 409, 422), "a passkey's answer or challenge is wrong, used or expired"
    UNKNOWN_PASSKEY = "unknown_passkey", (404,), "the player has no passkey of this id"
    LAST_SIGN_IN = "last_sign_in", (409,), "unlinking the player's only way to sign in (no key, no other identity)"
    # ---- step-up for account changes (issue 51)
    STEP_UP_REQUIRED = "step_up_required", (403,), \
        "an account change that takes from the player's other devices, without a fresh proof " \
        "(`POST /players/me/step-up`)"
    STEP_UP_REFUSED = "step_up_refused", (403,), \
        "a step-up's proof is wrong, not the player's, too old, or was added too recently to count"
    # ---- games
    UNKNOWN_GAME = "unknown_game", (404,), "no game has this id"
    UNKNOWN_PLAYER = "unknown_player", (404,), "no player has this id (a public profile)"
    UNKNOWN_SEASON = "unknown_season", (404,), "a season's name that is no month (`YYYY-MM`, or `current`)"
    SEASON_NOT_STARTED = "season_not_started", (404,), "a season (a month) after the running one"
    NOT_SEEKING = "not_seeking", (404,), "the player has no seek (`GET`/`DELETE /matchmaking`)"
    UNKNOWN_SEAT = "unknown_seat", (404,), "the game has no such seat"
    VERSION_OUT_OF_RANGE = "version_out_of_range", (404,), "no such version in the game's history"
    UNKNOWN_GAME_TYPE = "unknown_game_type", (422, 404), "this server hosts no game of that type (404: in a path)"
    GAME_TYPE_UNAVAILABLE = "game_type_unavailable", (503,), "the game's type is no longer hosted by this server"
    INVALID_SEATS = "invalid_seats", (400,), "the seats of a new game are too few, too many or malformed"
    UNKNOWN_BOT = "unknown_bot", (400,), "a seat names a bot level the game does not have"
    INVALID_OPTIONS = "invalid_options", (400,), "an option the game does not have, or a value it refuses"
    INVALID_CLOCK = "invalid_clock", (400,), "the new game's `clock` is malformed"
    ANONYMOUS_GAMES_FULL = "anonymous_games_full", (503,), \
        "the server holds its most unfinished games created without a player's key (`Retry-After`)"
    TOO_MANY_WAITING_GAMES = "too_many_waiting_games", (409,), \
        "the player has its most games waiting for seats (MAX_WAITING_GAMES_PER_PLAYER, `details.limit`)"
    SEED_NOT_ALLOWED = "seed_not_allowed", (422,), "a client's seed for a game with a person's seat"
    VERSION_CONFLICT = "version_conflict", (409,), "the game moved on since `expected_version` (`version`: now)"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused", (422,), "the `Idempotency-Key` was used for another request"
    ILLEGAL_MOVE = "illegal_move", (422,), "the rules refused the move (the games' own codes stand beside it)"
    GAME_OVER = "game_over", (409, 422), "a move (422) or a seat's change (409) in a game that ended"
    GAME_NOT_STARTED = "game_not_started", (409,), "a move, resignation or abort in a game still waiting for seats"
    GAME_NOT_OVER = "game_not_over", (409,), "a rematch of a game still played"
    GAME_ARCHIVED = "game_archived", (409,), "a rematch of a game moved to the archive (`ARCHIVE_AFTER_S`)"
    GAME_EXPIRED = "game_expired", (410,), "the game ended longer ago than games are kept (`ARCHIVE_RETENTION_S`)"
    ARCHIVE_DAMAGED = "archive_damaged", (503,), \
        "the game's archived record is damaged (an operator repairs it: `python -m tools.archive verify`)"
    TIME_EXPIRED = "time_expired", (409,), "a move after its seat's deadline (the timeout wins)"
    SEAT_PLAYED_BY_BOT = "seat_played_by_bot", (409,), "a person's move for a seat a bot took over"
    GAME_NOT_FINISHED = "game_not_finished", (409,), "the analysis of a game that has not finished"
    ANALYSIS_LIMIT_REACHED = "analysis_limit_reached", (429,), \
        "the player asked for its most analyses today (`ANALYSIS_PER_DAY`, `Retry-After`)"
    # ---- seats
    SEAT_TAKEN = "seat_taken", (409,), "someone claimed the seat first"
    ALREADY_MATCHED = "already_matched", (409,), "the seek was paired already (its game is made, or being made)"
    GAME_STARTED = "game_started", (409,), "claiming or leaving a seat once the game started"
    SEAT_IS_BOT = "seat_is_bot", (409,), "the seat is a bot's"
    ALREADY_SEATED = "already_seated", (409,), "the player already sits in the game"
    SEAT_RESERVED = "seat_reserved", (409,), "the seat is kept for a rematch's player"
    LINKED_ACCOUNTS = "linked_accounts", (409,), \
        "a rated game's seat claimed by an account linked to a seated one (`details.linked_seats`; docs/promises.md)"
    SEAT_NOT_CLAIMED = "seat_not_claimed", (409,), "leaving a seat that was not claimed"
    SEAT_RESIGNED = "seat_resigned", (409,), "returning to a seat that resigned"
    ABORT_NOT_ALLOWED = "abort_not_allowed", (409,), "aborting after a person moved, or too early (`allowed_from`)"
    # ---- correspondence time: vacations
    INVALID_VACATION = "invalid_vacation", (400,), "a vacation's dates are malformed, reversed or in the past"
    VACATION_OVERLAPS = "vacation_overlaps", (409,), "a vacation overlapping one the player already has"
    VACATION_ALLOWANCE_EXCEEDED = "vacation_allowance_exceeded", (409,), \
        "more vacation days than the player has left in that year (`details.left_days`)"
    UNKNOWN_VACATION = "unknown_vacation", (404,), "the player has no such vacation still to come"
    # ---- webhooks
    TABLE_TOKEN_REQUIRED = "table_token_required", (403,), "webhooks are made with a player's key or a table token"
    GAME_NOT_YOURS = "game_not_yours", (403,), "a webhook for a game its owner does not sit in (or an unknown one)"
    PLAYER_REQUIRED = "player_required", (422,), "`\"games\": \"mine\"` needs a player's key"
    WEBHOOK_URL_REFUSED = "webhook_url_refused", (422,), "the URL is not https, or resolves to a refused address"
    TOO_MANY_WEBHOOKS = "too_many_webhooks", (422,), "the owner has its most webhooks (`details.limit`)"
    UNKNOWN_WEBHOOK = "unknown_webhook", (404,), "no such subscription, or another owner's"
    UNKNOWN_DELIVERY = "unknown_delivery", (404,), "the subscription has no such delivery"
    # ---- moderation (issue 50)
    MODERATOR_REQUIRED = "moderator_required", (403,), \
        "a moderator's operation asked by a player who is not one (the operator grants the role: docs/operators.md)"
    ALREADY_VOIDED = "already_voided", (409,), "voiding a player whose games are voided already"
    NOT_VOIDED = "not_voided", (409,), "undoing the void of a player whose games are not voided"
    # ---- tournaments (issue 52)
    UNKNOWN_TOURNAMENT = "unknown_tournament", (404,), "no tournament has this id"
    TOURNAMENT_CLOSED = "tournament_closed", (409,), \
        "the tournament takes no more entries or pairings (over, full, or past its late-join window)"
    ALREADY_ENTERED = "already_entered", (409,), "the player is in the tournament already"
    NOT_ENTERED = "not_entered", (409,), "the player is not in the tournament (withdrawing)"
    ROUND_NOT_READY = "round_not_ready", (409,), "the tournament's round is still being played"
    ORGANISER_REQUIRED = "organiser_required", (403,), \
        "only the tournament's creator or a moderator may adjust its results"
    ENTRY_REFUSED = "entry_refused", (403,), \
        "the tournament's entry conditions refuse the player (its rating range, its invitations)"
    GROUP_MEMBERS_ONLY = "group_members_only", (403,), \
        "entering a tournament limited to a group's members without being a member of that group"
    # ---- people around the table (issue 53)
    SELF_RELATION = "self_relation", (422,), "following, blocking or challenging oneself"
    NOT_ALLOWED_BY_PLAYER = "not_allowed_by_player", (403,), \
        "the other player's privacy settings (who may follow or challenge them) refuse it"
    YOU_BLOCKED = "you_blocked", (409,), "following or challenging a player the caller blocked (unblock first)"
    CANNOT_MEET = "cannot_meet", (409,), \
        "a block between the caller and a player at the table (seated, its creator, or its seat's reserved " \
        "player) keeps them apart"
    UNKNOWN_CHALLENGE = "unknown_challenge", (404,), \
        "declining a game that is no challenge to the caller, or one answered already (taken, declined, expired)"
    UNKNOWN_GROUP = "unknown_group", (404,), "no group has this id (or it was dissolved: its last member left)"
    NOT_GROUP_MEMBER = "not_group_member", (403,), \
        "a member's operation (or the members of a group by invitation) asked by a player not in the group"
    NOT_INVITED = "not_invited", (403,), "joining a group by invitation without an invitation"
    GROUP_ROLE_REQUIRED = "group_role_required", (403,), \
        "inviting without being the group's owner or an admin, or giving roles without being its owner"
    OWNER_CANNOT_LEAVE = "owner_cannot_leave", (409,), \
        "the group's owner leaving (or taking another role) while other members remain: hand it over first"
    # ---- chat and its moderation (issue 53)
    CHAT_CLOSED = "chat_closed", (403,), \
        "a chat the caller may not read or write: the other side's game chat during play, a group's chat by an outsider"
    CHAT_SUSPENDED = "chat_suspended", (403,), "writing a message while a moderator's suspension from chat lasts"
    PLAY_SUSPENDED = "play_suspended", (403,), \
        "creating, claiming or seeking a game while a moderator's suspension from play lasts"
    CHAT_TOO_FAST = "chat_too_fast", (429,), "more messages than the chat's rate allows (`details.retry_after`)"
    UNKNOWN_MESSAGE = "unknown_message", (404,), "no message has this id in this channel"
    UNKNOWN_REPORT = "unknown_report", (404,), "no report has this id"
    UNKNOWN_ACTION = "unknown_action", (404,), "no moderator's action has this id"
    ALREADY_DONE = "already_done", (409,), "undoing an action undone already, resolving a report resolved already"
    # ---- push notifications
    PUSH_ENDPOINT_REFUSED = "push_endpoint_refused", (422,), \
        "the push endpoint is not an https URL, names an IPv6 address, or resolves to a refused address"
    TOO_MANY_PUSH_SUBSCRIPTIONS = "too_many_push_subscriptions", (422,), \
        "the player has its most push subscriptions (`details.limit`)"
    PUSH_KIND_UNAVAILABLE = "push_kind_unavailable", (422,), \
        "a native app's push registration (`fcm`, `apns`) of a kind with no credentials set (`details.available`)"
    UNKNOWN_PUSH_SUBSCRIPTION = "unknown_push_subscription", (404,), "the player has no such push subscription"
    # ---- live streams
    TOO_MANY_STREAMS = "too_many_streams", (429,), "the address or the seat holds its most live streams"
    STREAMS_FULL = "streams_full", (503,), "this server process holds its most live streams"
    STREAMS_BUSY = "streams_busy", (503,), "this server process opens its most live streams a second"
    # ---- the server
    STORE_UNAVAILABLE = "store_unavailable", (503,), "Redis cannot be reached; nothing was changed"
    NOT_READY = "not_ready", (503,), "a readiness probe failed (`details.checks`)"
    INTERNAL_ERROR = "internal_error", (500,), "an unexpected error; nothing was changed"


class ApiError(Exception):
    status = 400
    code: str = Code.BAD_REQUEST  # a `Code`, or a game's own code carried out of MoveRejected

    def __init__(self, message: str, *, code: str | None = None, status: int | None = None,
                 version: int | None = None, details: dict[str, Any] | None = None,
                 headers: dict[str, str] | None = None, wording: Wording | None = None):
        super().__init__(message)
        self.message = message
        # A game's refusal carried out of MoveRejected: its template and arguments, said in the
        # caller's language with every detail (api/words error_sentence).
        self.wording = wording
        if code:
            self.code = code
        if status:
            self.status = status
        self.version = version
        self.details = details or {}
        self.headers = headers or {}


class ValidationFailed(ApiError):
    status, code = 400, Code.VALIDATION_ERROR


class UnknownGame(ApiError):
    status, code = 404, Code.UNKNOWN_GAME


class GameExpired(UnknownGame):
    """Past the retention: gone for good. An UnknownGame, so that every listing that passes
    over a game gone drops it too."""
    status, code = 410, Code.GAME_EXPIRED


class AnonymousGamesFull(ApiError):
    status, code = 503, Code.ANONYMOUS_GAMES_FULL


class TooManyWaitingGames(ApiError):
    status, code = 409, Code.TOO_MANY_WAITING_GAMES


class UnknownGameType(ApiError):
    status, code = 422, Code.UNKNOWN_GAME_TYPE


class InvalidToken(ApiError):
    status, code = 401, Code.INVALID_TOKEN


class TokenRequired(ApiError):
    status, code = 401, Code.TOKEN_REQUIRED


class SeatNotYours(ApiError):
    status, code = 403, Code.SEAT_NOT_YOURS


class SeatRequired(ApiError):
    status, code = 400, Code.SEAT_REQUIRED


class VersionConflict(ApiError):
    status, code = 409, Code.VERSION_CONFLICT


class GameArchived(ApiError):
    status, code = 409, Code.GAME_ARCHIVED


class IllegalMove(ApiError):
    """A move the game's rules refused; `code` is the game's own (`not_your_turn`, ...)."""

    status, code = 422, Code.ILLEGAL_MOVE


class IdempotencyKeyReused(ApiError):
    status, code = 422, Code.IDEMPOTENCY_KEY_REUSED
