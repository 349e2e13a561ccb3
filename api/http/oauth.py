"""The OAuth 2.0 authorization server for third-party apps (issue 51), built on authlib's Flask
server over the records of api/players/apps.py (Redis: every API node the same, restarts lose
nothing).

- A player registers apps: `POST/GET /players/me/apps`, `DELETE /players/me/apps/{client_id}`
  (public, or confidential with a secret shown once); redirect URIs matched exactly.
- The authorization code flow with PKCE S256, required of every app (no plain, no implicit
  flow, no password grant): `GET /oauth/authorize` answers the consent page (HTML, the app's
  name and the scopes asked in words, in Korean or English); the page's script sends the
  person's answer with the key the web client keeps, `POST /oauth/authorize?<the same query>`
  `{"approve": true|false}`, whose answer names where the browser goes next
  (`{"redirect": "<redirect_uri>?code=…&state=…"}`).
- `POST /oauth/token`: a code (with its verifier) or a refresh token for an access token (a
  personal access token of the player holding the scopes granted: api/http/scopes.py holds it
  to them), an hour, and a new refresh token (rotation; reuse revokes the grant).
- `POST /oauth/revoke` (RFC 7009), `POST /oauth/introspect` (RFC 7662, an app's own tokens),
  `GET /.well-known/oauth-authorization-server` (RFC 8414).
- `GET /players/me/authorizations`, `DELETE /players/me/authorizations/{grant_id}`: the apps the
  player authorised, and their revocation (what the app made ends).

The OAuth endpoints answer errors in OAuth's form (RFC 6749 §5.2: `{"error",
"error_description"}`, the description in English: the RFC allows it ASCII only); the others
in the project's (problem+json, both languages).
"""
from __future__ import annotations

import secrets
from typing import Any, cast
from urllib.parse import urlencode

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.base import invalid_error_characters
from authlib.oauth2.rfc6749 import grants
from authlib.oauth2.rfc6749.errors import InvalidGrantError, InvalidRequestError, InvalidScopeError
from authlib.oauth2.rfc6750 import BearerTokenGenerator
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc7662 import IntrospectionEndpoint
from flask import Blueprint, Flask, Response, current_app, request
from flask.typing import ResponseReturnValue
from markupsafe import escape
from marshmallow import RAISE, Schema, fields, validate

from api.http import languages
from api.http.auth import current_player
from api.http.requests import json_body, players
from api.http.schemas import NAME, JsonBool, NameField
from api.http.scopes import spec_table
from api.players.apps import (
    ACCESS_TTL_S,
    DANGER,
    REFRESH_PREFIX,
    AppClient,
    Apps,
    AuthCode,
    RefreshRecord,
    ScopeWidened,
    TooManyApps,
    UnknownApp,
)
from api.players.tokens import TOKEN_PREFIX
from api.words import translate

bp = Blueprint("oauth", __name__)

AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]
MAX_URI = 500


def _apps() -> Apps:
    return players().apps


# ---- the grants -------------------------------------------------------------------------

class S256Only(CodeChallenge):
    """PKCE with S256 alone (RFC 9700 §2.1.1: plain only when S256 cannot be done)."""
    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]
    DEFAULT_CODE_CHALLENGE_METHOD = "S256"


class CodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = AUTH_METHODS

    @staticmethod
    def validate_authorization_redirect_uri(request: Any, client: AppClient) -> str:
        """authlib words a refused redirect URI into its error's description, which RFC 6749
        keeps to printable ASCII without `"` and `\\`: on any other character its own check raised
        ValueError, a 500 (the fuzz campaign's case q7rPT6). No URI holds those (RFC 3986), so no
        app registered one: such a URI is refused as any unregistered one is, without echoing it."""
        uri = request.payload.redirect_uri
        if uri and invalid_error_characters(uri):
            raise InvalidRequestError("The redirect URI is not one the app registered.")
        return cast(str, grants.AuthorizationCodeGrant.validate_authorization_redirect_uri(request, client))

    def validate_authorization_request(self) -> str:
        redirect_uri: str = super().validate_authorization_request()
        data = self.request.payload.data
        if not data.get("code_challenge") or data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("PKCE is required: send 'code_challenge' with 'code_challenge_method=S256'.",
                                      redirect_uri=redirect_uri, state=self.request.payload.state)
        return redirect_uri

    def save_authorization_code(self, code: str, request: Any) -> None:
        data = request.payload.data
        _apps().save_code(code, request.client.client_id, request.user, request.payload.redirect_uri,
                          request.scope, data["code_challenge"], data["code_challenge_method"])

    def query_authorization_code(self, code: str, client: AppClient) -> AuthCode | None:
        return _apps().take_code(code, client.client_id)  # taken once, whatever follows

    def delete_authorization_code(self, authorization_code: AuthCode) -> None:
        pass  # taken by its query already

    def authenticate_user(self, authorization_code: AuthCode) -> str:
        return authorization_code.player


class RefreshGrant(grants.RefreshTokenGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = AUTH_METHODS
    INCLUDE_NEW_REFRESH_TOKEN = True  # rotation

    def authenticate_refresh_token(self, refresh_token: str) -> RefreshRecord | None:
        asked = set((self.request.payload.scope or "").split())
        try:
            return _apps().use_refresh(refresh_token, self.request.client.client_id, asked)
        except ScopeWidened:
            raise InvalidScopeError("A refresh asks no scope the grant does not hold.") from None

    def authenticate_user(self, refresh_token: RefreshRecord) -> str:
        return refresh_token.player

    def revoke_old_credential(self, refresh_token: RefreshRecord) -> None:
        _apps().retire(refresh_token)


class Revocation(RevocationEndpoint):
    CLIENT_AUTH_METHODS = AUTH_METHODS

    def query_token(self, token_string: str, token_type_hint: str | None) -> RefreshRecord | None:
        return _apps().find_token(token_string, players().player_of_key)

    def revoke_token(self, token: RefreshRecord, request: Any) -> None:
        _apps().revoke(token)


class Introspection(IntrospectionEndpoint):
    """RFC 7662, for an app's own tokens: another app's, or an unknown one, is `{"active": false}`."""
    CLIENT_AUTH_METHODS = AUTH_METHODS

    def query_token(self, token_string: str, token_type_hint: str | None) -> RefreshRecord | None:
        return _apps().find_token(token_string, players().player_of_key)

    def check_permission(self, token: RefreshRecord, client: AppClient, request: Any) -> bool:
        return token.check_client(client)

    def introspect_token(self, token: RefreshRecord) -> dict[str, Any]:
        said = {"active": True, "scope": token.scopes, "client_id": token.client_id, "token_type": token.kind,
                "sub": token.player, "iss": request.host_url.rstrip("/")}
        return {**said, "exp": token.expires // 1000} if token.expires else said


def _save_token(token: dict[str, Any], request: Any) -> None:
    grant = request.refresh_token.grant if request.refresh_token is not None else None
    try:
        _apps().issue(request.user, request.client, token.get("scope", ""), token["access_token"],
                      token["refresh_token"], grant)
    except (TooManyApps, UnknownApp) as refused:  # the player's grants are full, or this one was revoked meanwhile
        raise InvalidGrantError(str(refused)) from None


def install(app: Flask) -> AuthorizationServer:
    """The authorization server, kept in `app.extensions["oauth"]`, and its routes."""
    server = AuthorizationServer(app, query_client=lambda client_id: _apps().find(client_id), save_token=_save_token)
    server.register_token_generator("default", BearerTokenGenerator(
        lambda *args, **kwargs: TOKEN_PREFIX + secrets.token_urlsafe(32),
        lambda *args, **kwargs: REFRESH_PREFIX + secrets.token_urlsafe(32),
        lambda client, grant_type: ACCESS_TTL_S))
    server.register_grant(CodeGrant, [S256Only(required=True)])
    server.register_grant(RefreshGrant)
    server.register_endpoint(Revocation)
    server.register_endpoint(Introspection)
    server.scopes_supported = sorted(spec_table().every - DANGER)
    app.extensions["oauth"] = server
    app.register_blueprint(bp)
    return server


def _server() -> AuthorizationServer:
    return current_app.extensions["oauth"]


def _answer(response: Any) -> Response:
    """authlib's answer (untyped: a Flask Response)."""
    return cast(Response, response)


# ---- the OAuth endpoints ------------------------------------------------------------------

@bp.get("/.well-known/oauth-authorization-server")
def metadata() -> ResponseReturnValue:
    """RFC 8414: where the endpoints are and what they take."""
    base = request.host_url.rstrip("/")
    return {"issuer": base, "authorization_endpoint": f"{base}/oauth/authorize",
            "token_endpoint": f"{base}/oauth/token", "revocation_endpoint": f"{base}/oauth/revoke",
            "introspection_endpoint": f"{base}/oauth/introspect",
            "scopes_supported": sorted(spec_table().every - DANGER), "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": AUTH_METHODS,
            "revocation_endpoint_auth_methods_supported": AUTH_METHODS,
            "introspection_endpoint_auth_methods_supported": AUTH_METHODS,
            "service_documentation": f"{base}/docs"}, 200, \
        {"Cache-Control": "public, max-age=300"}


@bp.get("/oauth/authorize")
def consent_page() -> ResponseReturnValue:
    """The consent page: the app and the scopes it asks, in words; an invalid request is
    answered in OAuth's form (sent back to the app only when its redirect URI is the app's)."""
    server = _server()
    try:
        grant = server.get_consent_grant(end_user=None)
    except OAuth2Error as error:
        return _answer(server.handle_error_response(None, error))
    return Response(_page(grant.client, grant.request.scope), mimetype="text/html",
                    headers={"Cache-Control": "no-store"})


class DecisionSchema(Schema):
    class Meta:
        unknown = RAISE

    approve = JsonBool(required=True)


_decision = DecisionSchema()


@bp.post("/oauth/authorize")
def decide() -> ResponseReturnValue:
    """The person's answer, with the key the web client keeps: where the browser goes next."""
    player = current_player(players())
    approve = _decision.load(json_body())["approve"]
    server = _server()
    try:
        grant = server.get_consent_grant(end_user=player.id)
    except OAuth2Error as error:
        return _answer(server.handle_error_response(None, error))
    if approve:
        _apps().make_room(player.id, grant.client.client_id, check_only=True)  # 409 too_many_apps, said on the page
    answer = server.create_authorization_response(grant_user=player.id if approve else None, grant=grant)
    location = answer.headers.get("Location")
    if answer.status_code != 302 or location is None:
        return _answer(answer)
    return {"redirect": location}, 200, {"Cache-Control": "no-store"}


@bp.post("/oauth/token")
def token() -> ResponseReturnValue:
    return _answer(_server().create_token_response())


@bp.post("/oauth/revoke")
def revoke() -> ResponseReturnValue:
    return _answer(_server().create_endpoint_response(Revocation.ENDPOINT_NAME))


@bp.post("/oauth/introspect")
def introspect() -> ResponseReturnValue:
    return _answer(_server().create_endpoint_response(Introspection.ENDPOINT_NAME))


# ---- a player's apps and authorisations -------------------------------------------------------

class NewAppSchema(Schema):
    class Meta:
        unknown = RAISE

    name = NameField(required=True, validate=NAME)
    redirect_uris = fields.List(fields.URL(schemes={"https", "http"}, require_tld=False, relative=False,
                                           validate=validate.Length(max=MAX_URI)),
                                required=True, validate=validate.Length(min=1, max=10))
    scopes = fields.List(fields.String(validate=validate.Length(min=1, max=32)), required=True,
                         validate=validate.Length(min=1, max=16))
    public = JsonBool(load_default=True)


_new_app = NewAppSchema()


def _no_fragment(uris: list[str]) -> list[str]:
    from api.errors import ValidationFailed

    bad = [u for u in uris if "#" in u or (u.startswith("http:") and not _loopback(u))]
    if bad:
        raise ValidationFailed("A redirect URI has no fragment, and is https (http only on a loopback address: "
                               "127.0.0.1, [::1] or localhost).",
                               details={"fields": {"redirect_uris": [f"Not a redirect URI: {u!r}." for u in bad]}})
    return uris


def _loopback(uri: str) -> bool:
    from urllib.parse import urlsplit

    host = (urlsplit(uri).hostname or "").lower()
    return host in ("127.0.0.1", "::1", "localhost")


@bp.post("/players/me/apps")
def register_app() -> ResponseReturnValue:
    """A third-party app the player registers: its client id (and secret, once)."""
    player = current_player(players())
    body = _new_app.load(json_body())
    app, secret = _apps().register(player.id, body["name"], _no_fragment(body["redirect_uris"]), body["scopes"],
                                   body["public"], spec_table().every)
    shown = app.shown()
    if secret is not None:
        shown["client_secret"] = secret
    return shown, 201, {"Location": f"/players/me/apps/{app.client_id}"}


@bp.get("/players/me/apps")
def list_apps() -> ResponseReturnValue:
    player = current_player(players())
    return {"apps": [a.shown() for a in _apps().owned(player.id)]}


@bp.delete("/players/me/apps/<client_id>")
def delete_app(client_id: str) -> ResponseReturnValue:
    player = current_player(players())
    _apps().delete(player.id, client_id)
    return "", 204


@bp.get("/players/me/authorizations")
def list_authorizations() -> ResponseReturnValue:
    player = current_player(players())
    return {"authorizations": _apps().grants(player.id)}


@bp.delete("/players/me/authorizations/<grant_id>")
def revoke_authorization(grant_id: str) -> ResponseReturnValue:
    player = current_player(players())
    _apps().revoke_grant(player.id, grant_id)
    return "", 204


# ---- the consent page -------------------------------------------------------------------

def _page(client: AppClient, scope: str) -> str:
    lang = languages.use()

    def say(text: str) -> str:
        return str(escape(translate(lang, "consent", text)))

    described = spec_table().scopes
    items = "".join(f"<li><code>{escape(s)}</code>: {escape(translate(lang, 'scope', described.get(s, s)))}</li>"
                    for s in scope.split())
    query = escape(urlencode(list(request.args.items(multi=True))))
    return f"""<!doctype html>
<html lang="{escape(lang)}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{say("Authorise an app")}</title>
  <link rel="stylesheet" href="/web/style.css">
  <script type="module" src="/web/consent.js"></script>
</head>
<body data-page="consent">
  <main class="lobby" id="consent" data-query="{query}" data-lang="{escape(lang)}">
    <section class="card">
      <h1>{say("Authorise an app")}</h1>
      <p><strong id="app-name">{escape(client.name)}</strong> {say("asks to act for you:")}</p>
      <ul id="scopes">{items}</ul>
      <p class="hint">{say("You can revoke it at any time; what it made then ends too.")}</p>
      <p id="who" class="hint"></p>
      <p id="no-player" class="hint" hidden>{say("This browser holds no player: play a game in the lobby first.")}</p>
      <button type="button" id="approve" class="primary">{say("Allow")}</button>
      <button type="button" id="deny">{say("Deny")}</button>
      <div id="status" class="status" role="status" aria-live="polite"></div>
    </section>
  </main>
</body>
</html>
"""
