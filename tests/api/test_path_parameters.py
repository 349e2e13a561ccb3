"""A path parameter over its `maxLength` (or outside its pattern) answers a status its operation
documents (issue 49, 13: schemathesis had reported a 414 as undocumented). Under the HTTP
server's 4,094-byte request line the application answers (404, 400, or the page); over it the
HTTP server's `414 uri_too_long`, which every operation documents."""
from __future__ import annotations

import re

from tests.api.spec import spec
from tests.lobby.helpers import player

LENGTHS = (65, 1401, 3000)  # over the ids' 64 and the passkeys' 1400; 3000 stays under the request line's limit


def _operations():
    for path, item in spec()["paths"].items():
        if "{" in path:
            for method in item:
                if method in ("get", "post", "put", "patch", "delete"):
                    yield method, path


def test_every_operation_documents_the_http_servers_414():
    for method, path in _operations():
        assert "414" in spec()["paths"][path][method]["responses"], (method, path)


def test_a_path_parameter_too_long_answers_a_documented_status(client):
    """The checking client holds every answer to its operation's documented statuses."""
    key = player(client, "Long")["key"]
    for method, path in _operations():
        for n in LENGTHS:
            url = re.sub(r"\{[^}]+\}", "x" * n, path)
            r = client.open(url, method=method.upper(), headers={"Authorization": f"Bearer {key}"},
                            json={} if method in ("post", "put", "patch") else None)
            assert str(r.status_code) in spec()["paths"][path][method]["responses"], (method, path, n, r.status_code)
