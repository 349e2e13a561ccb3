"""Retiring an operation (docs/api-policy.md): marked in openapi.yaml, its answers carry the RFC
9745 `Deprecation`, the RFC 8594 `Sunset` and a `Link` to its documentation; nothing else does.
No operation is deprecated today, so the app here is made over a copy of the spec that marks
one (`GET /games/{id}`), and the extensions the policy adds are shown valid OpenAPI."""
from __future__ import annotations

import copy
import uuid
from datetime import date, timedelta
from functools import cache

import pytest
from openapi_spec_validator import validate

from api.http import deprecation
from api.openapi import load_yaml
from tests.conftest import ROOT

NOTICE = 180  # days: the least time from a deprecation to its sunset


def _retiring(spec: dict, path: str, method: str, **marks) -> dict:
    marked = copy.deepcopy(spec)
    marked["paths"][path][method].update({"deprecated": True, **marks})
    return marked


# Read when a test asks, not at import: every xdist worker imports this module to collect it,
# and the spec's parse and copy cost a second or two of CPU each time.
@cache
def spec() -> dict:
    return load_yaml((ROOT / "openapi.yaml").read_text())


@cache
def marked() -> dict:
    return _retiring(spec(), "/games/{id}", "get", **{"x-deprecated-at": date(2027, 1, 15), "x-sunset": date(2027, 7, 15)})


@pytest.fixture(scope="module")
def retiring_client(redis_url):
    from app import create_app

    patch = pytest.MonkeyPatch()
    patch.setattr(deprecation, "spec_notices", lambda: deprecation.notices(marked()))
    try:
        app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": f"dep{uuid.uuid4().hex[:6]}:", "TESTING": True})
    finally:
        patch.undo()
    return app.test_client()


def test_a_deprecated_operations_answers_say_so(retiring_client):
    created = retiring_client.post("/games", json={"type": "splendor", "seats": [{"bot": "random"}, {"bot": "random"}]})
    assert created.status_code == 201 and "Deprecation" not in created.headers  # POST /games is not retired
    game = created.get_json()["id"]
    for answer in (retiring_client.get(f"/games/{game}"), retiring_client.head(f"/games/{game}"),
                   retiring_client.get("/games/nosuchgame")):  # an error of it too
        assert answer.headers["Deprecation"] == "@1799971200"  # 2027-01-15T00:00:00Z
        assert answer.headers["Sunset"] == "Thu, 15 Jul 2027 00:00:00 GMT"
        assert answer.headers["Link"] == '</docs#/games/readGame>; rel="deprecation"; type="text/html"'
    assert "Deprecation" not in retiring_client.get(f"/games/{game}/moves").headers


def test_the_notices_read_from_the_specs_own_lines_are_the_whole_specs(tmp_path):
    """spec_notices parses only the lines the notices are made from (api/openapi's pruned, issue
    57: a web worker's memory); a spec that retires an operation gives the same notices so."""
    import yaml

    written = tmp_path / "openapi.yaml"
    written.write_text(yaml.dump(marked(), Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False,
                                 allow_unicode=True, width=100))
    found = deprecation.spec_notices(written)
    assert found == deprecation.notices(marked()) and ("GET", "/games/{}") in found


def test_a_routes_own_link_stays_beside_the_notice():
    retired = _retiring(spec(), "/games", "get", **{"x-deprecated-at": "2027-01-15"})
    notice = deprecation.notices(retired)[("GET", "/games")]  # a path without variables
    assert notice.sunset is None and "Sunset" not in notice.headers()  # no sunset set yet


def test_a_deprecation_without_its_date_is_refused_at_start():
    with pytest.raises(ValueError, match="x-deprecated-at"):
        deprecation.notices(_retiring(spec(), "/games/{id}", "get"))


def test_flask_rules_read_as_the_specs_paths():
    assert deprecation.shape("/games/<game_id>/seats/<int:seat>/return") == "/games/{}/seats/{}/return"
    assert deprecation.shape("/games/{id}/seats/{seat}/return") == "/games/{}/seats/{}/return"


def test_the_policys_extensions_are_valid_openapi():
    validate(marked())


def test_the_spec_retires_only_as_the_policy_says():
    """Every deprecated operation of openapi.yaml names its date, and a sunset (once set) at least
    the notice period later. Today none is deprecated, so the app adds no step to any request."""
    found = deprecation.notices(spec())
    for (method, path), notice in found.items():
        if notice.sunset is not None:
            assert notice.sunset - notice.deprecated_at >= timedelta(days=NOTICE), f"{method} {path}"
    assert found == deprecation.spec_notices()
    assert not found or deprecation.marker(found) is not None
