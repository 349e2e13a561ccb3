"""schemathesis hooks for the CI run against `python app.py` (tests/robustness/test_schemathesis.py):
loaded by the schemathesis CLI through SCHEMATHESIS_HOOKS, with the server at GAME_SERVER_URL.

Generated game ids are replaced, for schema-valid (positive) cases, by ids of real games (a
running Splendor, a running Witches with a bot, a finished High Card) and the case gets a real
seat token of that game, sometimes the game's current version and a legal move: the fuzzing
reaches past 401/404/409 into the games. Negative cases are sent as generated (replacing their
id could turn them valid). The player's own operations (`/players/me...`) get a real player's
key. Every error must be application/problem+json with a code and a
detail (a check of our own, run beside schemathesis's).

The coverage phase's wrong-typed body fields are sent once per field and JSON type
(`filter_case`): schemathesis repeats them under each branch of a `oneOf` (each game's options
and moves), bodies that differ only in the other branch's valid fields.

In the smoke (FUZZ_SCOPE=smoke), a clocked game a case created outside the stateful phase is
resigned once its answer is back (`after_call`): its takeover bots would otherwise play it to
its end, work no check reads.
"""
from __future__ import annotations

import os
import random
import re
import time

import requests
import schemathesis

BASE = os.environ.get("GAME_SERVER_URL", "http://127.0.0.1:8000")
_rng = random.Random(os.environ.get("FUZZ_SEED", "14"))  # the run's seed: a replay aims its cases alike
_games: list = []


def _create(type_, seats):
    r = requests.post(f"{BASE}/games", json={"type": type_, "seats": seats}, timeout=30)
    r.raise_for_status()
    created = r.json()
    return created["id"], [s["token"] for s in created["seats"] if s["token"]]


def _play_to_end(gid, tokens):
    deadline, pause = time.monotonic() + 60, 0.02
    while time.monotonic() < deadline:
        game = requests.get(f"{BASE}/games/{gid}", timeout=30).json()
        if game["status"] == "finished":
            return
        moved = False
        for token in tokens:
            moves = requests.get(f"{BASE}/games/{gid}/moves", headers=_auth(token), timeout=30).json()
            if moves["moves"]:
                moved = requests.post(f"{BASE}/games/{gid}/moves", headers=_auth(token), timeout=30,
                                      json={"expected_version": moves["version"], "move": moves["moves"][0]}).ok
        # the system scores a round in a worker: asked again sooner after a move, less often while it has not
        pause = 0.02 if moved else min(pause * 1.5, 0.2)
        time.sleep(pause)
    raise AssertionError("the High Card game did not end")


def _auth(token):
    return {"Authorization": f"Bearer {token}"}


def games() -> list:
    if not _games:
        _games.append(_create("splendor", [{"name": "A"}, {"name": "B"}]))
        _games.append(_create("witches", [{"name": "A"}, {"name": "B"}, {"bot": "random"}]))
        finished = _create("high-card", [{"name": "A"}, {"name": "B"}])
        _play_to_end(*finished)
        _games.append(finished)
    return _games


_player_keys: list = []


def _player_key(fresh: bool = False) -> str:
    """A real player's key (a fresh player for each key rotation: it spends the key it is sent)."""
    if fresh or not _player_keys:
        r = requests.post(f"{BASE}/players", json={"name": "Fuzz"}, timeout=30)
        r.raise_for_status()
        if fresh:
            return r.json()["key"]
        _player_keys.append(r.json()["key"])
    return _player_keys[0]


def _push_subscription() -> dict:
    """What a browser's PushSubscription holds: a P-256 public key, a 16-byte secret, an https
    endpoint (a schema cannot make a point on the curve)."""
    import base64
    import os

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    b64 = lambda raw: base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    return {"endpoint": f"https://push.example.com/{b64(os.urandom(9))}",
            "keys": {"p256dh": b64(point), "auth": b64(os.urandom(16))}}


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive:
        return
    label = case.operation.label
    if label.split(" ", 1)[1].startswith("/players/me") and _rng.random() < 0.8:
        # The player's own operations, as a real player (else only their 401s are reached).
        # A key rotation (no `name`) spends the key it is sent: a fresh player's. A named key is
        # the shared player's, so the stateful phase's DELETE of it finds it.
        rotation = label == "POST /players/me/keys" and not (isinstance(case.body, dict) and "name" in case.body)
        key = _player_key(fresh=rotation)
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {key}"}
        object.__setattr__(case, "_has_explicit_auth", True)
        if label == "POST /players/me/push-subscriptions" and isinstance(case.body, dict) and _rng.random() < 0.5:
            case.body.update(_push_subscription())  # a browser's: a real key, an https endpoint
        return
    if label == "POST /games" and isinstance(case.body, dict) and "Authorization" not in (case.headers or {}) \
            and any(isinstance(s, dict) and "me" in s for s in case.body.get("seats") or []):
        # A seat for the creating player needs a player's key, as the spec says (security).
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {_player_key()}"}
        return
    if not case.path_parameters or "id" not in case.path_parameters:
        return
    known = games()
    if case.path_parameters["id"] in {gid for gid, _ in known}:
        return  # aimed already: a check's probe of this case (its auth removed or spoiled), sent as is
    pick = _rng.randrange(len(known) + 1)
    if pick == len(known):
        return  # as generated
    gid, tokens = known[pick]
    case.path_parameters["id"] = gid
    seat = _rng.randrange(len(tokens) + 1)
    token = tokens[seat] if seat < len(tokens) else None
    if token:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        # A real credential, as `--auth` would give: the auth checks then probe the case without
        # it and with a spoiled one, and expect 401s there.
        object.__setattr__(case, "_has_explicit_auth", True)
    current = _rng.random() < 0.5
    label = case.operation.label
    if current and label == "GET /games/{id}/state":
        case.query = {**(case.query or {}), "version": requests.get(f"{BASE}/games/{gid}", timeout=30).json()["version"]}
    if label == "POST /games/{id}/moves" and isinstance(case.body, dict) and token:
        moves = requests.get(f"{BASE}/games/{gid}/moves", headers=_auth(token), timeout=30).json()
        if current:
            case.body["expected_version"] = moves["version"]
        if moves["moves"] and _rng.random() < 0.5:
            case.body["move"] = moves["moves"][0]


@schemathesis.check
def errors_are_problem_json(ctx, response, case):
    if response.status_code >= 400 and case.path.startswith("/oauth/"):
        body = response.json()  # OAuth's endpoints answer OAuth's form (RFC 6749 §5.2), or the project's
        assert isinstance(body.get("error"), str) or body.get("code"), body
        return None
    if response.status_code >= 400:
        content_type = response.headers.get("content-type", [""])
        content_type = content_type[0] if isinstance(content_type, list) else content_type
        assert content_type.startswith("application/problem+json"), \
            f"{response.status_code} answered as {content_type!r}, not application/problem+json"
        body = response.json()
        assert body["status"] == response.status_code and body["code"] and body["detail"]
    return None


_type_probes_sent: set = set()

# The smoke (tests/robustness/test_schemathesis.py sets FUZZ_SCOPE=smoke) sends a part of two
# kinds of coverage cases; the campaign (bench/fuzz_api.py) sends them all.
SMOKE = os.environ.get("FUZZ_SCOPE") == "smoke"
# Of the eight methods schemathesis sends where a path does not declare them: OPTIONS (the one
# `allow_header_conformance` checks) and DELETE (one the API declares on other paths, so the
# routing must tell them apart by path).
SMOKE_UNDECLARED_METHODS = {"OPTIONS", "DELETE"}
_smoke_fields_typed: set = set()


def _smoke_sends(case, data) -> bool:
    """In the smoke: a method a path does not declare only if it is one of
    SMOKE_UNDECLARED_METHODS, and one wrong JSON type per field (the first schemathesis makes),
    not each of them."""
    if data.scenario == "unspecified_http_method":
        return case.method.upper() in SMOKE_UNDECLARED_METHODS
    if data.scenario == "incorrect_type":
        field = re.sub(r"/(oneOf|anyOf|allOf)/\d+", "", data.location or "").removesuffix("/type")
        key = (case.operation.label, str(data.parameter_location), data.parameter, field)
        if key in _smoke_fields_typed:
            return False
        _smoke_fields_typed.add(key)
    return True


def _json_types(values: list) -> tuple[str, ...]:
    named = {"boolean" if isinstance(v, bool) else "null" if v is None else
             "number" if isinstance(v, (int, float)) else type(v).__name__ for v in values}
    return tuple(sorted(named))


def _reached(body, pointer: str) -> tuple[str, ...] | None:
    """The JSON types of the values the schema pointer of a wrong-typed field (`/oneOf/2/allOf/0/
    properties/seats/items/type`) names in the body; None where the pointer is of another form."""
    values, steps = [body], re.sub(r"/(oneOf|anyOf|allOf)/\d+", "", pointer).strip("/").split("/")
    for at, step in enumerate(steps):
        if step == "type" and at == len(steps) - 1:
            return _json_types(values) if values else None
        if step == "items":
            values = [item for v in values if isinstance(v, list) for item in v]
        elif step.startswith("properties:"):
            name = step.split(":", 1)[1]
            values = [v[name] for v in values if isinstance(v, dict) and name in v]
        else:
            return None
    return None


@schemathesis.hook
def filter_case(ctx, case):
    """A coverage case that gives a body field the same wrong JSON type as one sent before for
    this operation is the same request to the server's validation (the same field, the same
    type; the rest of the body another `oneOf` branch's valid values): not sent again. 5,961
    coverage cases of the spec, 557 such repeats (POST /games 340, POST /games/{id}/moves 212)."""
    meta = case.meta
    if meta is None or meta.phase.name != "coverage":
        return True
    if SMOKE and not _smoke_sends(case, meta.phase.data):
        return False
    if meta.phase.data.scenario != "incorrect_type" or meta.phase.data.parameter_location != "body":
        return True
    pointer = re.sub(r"/properties/([^/]+)", r"/properties:\1", meta.phase.data.location)
    types = _reached(case.body, pointer)
    if types is None:
        return True
    key = (case.operation.label, re.sub(r"/(oneOf|anyOf|allOf)/\d+", "", pointer), meta.phase.data.description, types)
    if key in _type_probes_sent:
        return False
    _type_probes_sent.add(key)
    return True


def _ended(gid: str, created: dict) -> None:
    """Resigns the game's seats (a person's token each) until it ends: fewer seats than its
    minimum are left. A request each; a refusal stops it (the game is then as the server left it)."""
    for seat in created.get("seats") or []:
        token = seat.get("token") if isinstance(seat, dict) else None
        if not token:
            continue
        r = requests.post(f"{BASE}/games/{gid}/resign", headers=_auth(token), timeout=30)
        if r.status_code != 200 or r.json().get("status") != "active":
            return


@schemathesis.hook
def after_call(ctx, case, response):
    """In the smoke, a clocked game the fuzz created (outside the stateful phase, whose next
    steps use it) is resigned as soon as it is answered: its clock would time out every seat
    within a second or so (a `per_move_s` or `initial_s` of 1, the schema's boundary) and the
    takeover bots would play it to its end, work no check reads (about 9,000 moves and half the
    smoke's CPU in the coverage phase). The answer, and every check of it, is the server's as
    it came; timeouts and takeovers are tests/api/test_clocks.py's, the bots' play the contract
    suite's and tests/api/test_play_every_game.py's."""
    meta = case.meta
    if not SMOKE or meta is None or meta.phase.name == "stateful" or case.operation.label != "POST /games" \
            or response.status_code != 201:
        return
    try:
        created = response.json()
    except ValueError:
        return
    clocked = isinstance(case.body, dict) and case.body.get("clock")
    if clocked and isinstance(created, dict) and created.get("status", "active") == "active":
        _ended(created["id"], created)
