"""Hostile input, generated: schemathesis fuzzes every operation of openapi.yaml (valid and
invalid bodies, query strings, headers, path ids) against the real app and a real Redis.
Every answer: no 5xx, a documented status, a body matching the documented schema and headers,
and every error `application/problem+json`.

The generated game ids are mixed with ids of real games (a running Splendor, a running
Witches, a finished High Card) and the generated Authorization headers with real seat
tokens, so the fuzzing reaches the game routes and not only their 404s.
"""
from __future__ import annotations

import os
import uuid

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, response_headers_conformance,
                                               response_schema_conformance, status_code_conformance)

from schemathesis import GenerationMode

from tests.conftest import ROOT

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
KNOWN: dict = {"games": [], "service": None}


@pytest.fixture(scope="module")
def fuzzed_app(redis_url):
    from app import create_app

    prefix = f"fuzz{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "SSE_KEEPALIVE_S": 0.02, "SSE_MAX_SECONDS": 0.05, "TESTING": True, "RATE_LIMIT": 1_000_000})
    service = app.extensions["games"]
    for type_, seats in (("splendor", [{"name": "A"}, {"name": "B"}]),
                         ("witches", [{"name": "A"}, {"name": "B"}, {"bot": "random"}]),
                         ("high-card", [{"name": "A"}, {"name": "B"}])):
        created = service.create(type_, seats, {}, 7)
        KNOWN["games"].append((created["id"], [s["token"] for s in created["seats"] if s["token"]]))
    KNOWN["service"] = service
    finished = KNOWN["games"][-1][0]
    for _ in range(30):  # play the High Card game to its end (the system scores in place of a worker)
        game = service.load(finished)
        if game.finished:
            break
        actor = game.actors()[0]
        service.move(finished, actor, game.definition.legal_moves(game.state, actor)[0], game.version)
    assert service.load(finished).finished
    yield app
    KNOWN["games"].clear()
    KNOWN["service"] = None


SCHEMA = schemathesis.openapi.from_path(ROOT / "openapi.yaml")
OPERATIONS = {op.ok().label: op.ok() for op in SCHEMA.get_all_operations()}


@schemathesis.hook
def flatmap_case(context, case):
    """Aims a generated case at a real game, with a real seat token of that game, the game's
    current version and, sometimes, a legal move: the fuzzing reaches past 401/404/409."""
    if not KNOWN["games"] or not case.path_parameters or "id" not in case.path_parameters:
        return st.just(case)
    return st.tuples(st.integers(0, len(KNOWN["games"])), st.integers(0, 3), st.booleans(),
                     st.booleans()).map(lambda choice: _aim(case, *choice))


def _aim(case, game, seat, current, legal):
    if game == len(KNOWN["games"]):
        return case  # as generated
    gid, seat_tokens = KNOWN["games"][game]
    case.path_parameters["id"] = gid
    if seat < len(seat_tokens):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {seat_tokens[seat]}"}
    service = KNOWN["service"]
    version = service.store.version(gid)
    if current and case.operation.label == "GET /games/{id}/state":
        case.query = {**(case.query or {}), "version": version}
    if case.operation.label == "POST /games/{id}/moves" and isinstance(case.body, dict):
        if current:
            case.body["expected_version"] = version
        if legal and seat < len(seat_tokens):
            loaded = service.load(gid)
            moves = service.legal_moves(loaded, service.seat_for_token(gid, seat_tokens[seat]))
            if moves:
                case.body["move"] = moves[0]
    return case


@schemathesis.check
def errors_are_problem_json(ctx, response, case):
    if response.status_code >= 400:
        content_type = response.headers.get("content-type", [""])
        content_type = content_type[0] if isinstance(content_type, list) else content_type
        assert content_type.startswith("application/problem+json"), \
            f"{response.status_code} answered as {content_type!r}, not application/problem+json"
        body = response.json()
        assert body["status"] == response.status_code and body["code"] and body["detail"]
    return None


CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          response_headers_conformance, errors_are_problem_json]


# Negative (invalid) cases for every operation that takes input; the others take none.
NO_INPUT = {"GET /", "GET /game-types", "GET /health", "GET /health/live", "GET /health/ready", "GET /metrics",
            "GET /openapi.yaml"}
# The fuzzed app has no turn workers of its own queue: not being ready is its documented answer.
NOT_READY_IS_AN_ANSWER = [c for c in CHECKS if c is not not_a_server_error]
CASES = [(label, GenerationMode.POSITIVE) for label in sorted(OPERATIONS)] + \
        [(label, GenerationMode.NEGATIVE) for label in sorted(OPERATIONS) if label not in NO_INPUT]


@pytest.mark.parametrize("label,mode", CASES, ids=[f"{label}-{mode.value}" for label, mode in CASES])
def test_every_operation_answers_as_documented(fuzzed_app, label, mode):
    operation = OPERATIONS[label]

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    def fuzz(case):
        case.call_and_validate(checks=NOT_READY_IS_AN_ANSWER if label == "GET /health/ready" else CHECKS,
                               app=fuzzed_app)

    fuzz()
