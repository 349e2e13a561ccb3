"""GET /docs: Swagger UI over this server's own openapi.yaml, every file of it served by the
server from the flask-swagger-ui package (nothing from a CDN)."""
import re

from api.openapi import load_yaml
from tests.conftest import ROOT


def test_the_docs_page_and_everything_it_loads_come_from_the_server(client):
    page = client.get("/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "<script>" not in html and "<style" not in html, "no inline script or style (the page's CSP)"
    start = client.get("/web/docs.js").get_data(as_text=True)
    assert "SwaggerUIBundle(" in start and 'url: "openapi.yaml"' in start and "validatorUrl: null" in start
    assert not re.search(r"(src|href)=\"(https?:)?//", html), "the page loads nothing from elsewhere"
    loaded = re.findall(r"(?:src|href)=\"([^\"]+)\"", html)
    assert {"docs/swagger-ui-bundle.js", "docs/swagger-ui.css", "web/docs.js"} <= set(loaded)
    for path in loaded:
        asset = client.get("/" + path)
        assert asset.status_code == 200, path
        assert len(asset.get_data()) > 100, path
    bundle = client.get("/docs/swagger-ui-bundle.js").get_data(as_text=True)
    assert "SwaggerUIBundle" in bundle
    # The spec the page loads, relative to /docs, is the server's.
    assert client.get("/openapi.yaml").status_code == 200


def test_only_the_docs_files_are_served(client):
    for path in ("/docs/LICENSE", "/docs/..%2fflask_swagger_ui.py", "/docs/nothing.js"):
        answer = client.get(path)
        assert answer.status_code == 404 and answer.mimetype == "application/problem+json", path


def test_the_index_and_the_readme_link_the_docs(client):
    assert client.get("/").get_json()["docs"] == "/docs"
    assert "/docs" in (ROOT / "README.md").read_text()


def _served_server(client, **headers):

    return load_yaml(client.get("/openapi.yaml", headers=headers).get_data(as_text=True))["servers"]


def test_the_served_spec_names_the_origin_it_was_asked_at(redis_url, client):
    """The spec's server is where the request was sent (not the file's localhost:8000), and a
    proxy's forwarding headers count only from a proxy of TRUSTED_PROXIES."""
    import uuid

    from app import create_app

    assert _served_server(client, Host="games.example:8443") == [{"url": "http://games.example:8443"}]
    assert client.get("/openapi.yaml").headers["Vary"].count("Host") == 2
    forged = {"Host": "games.example", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "evil.example"}
    assert _served_server(client, **forged) == [{"url": "http://games.example"}]  # not trusted
    assert _served_server(client, Host="[::1]:8000") == [{"url": "http://[::1]:8000"}]
    assert _served_server(client, Host="bad host: x") == [{"url": "/"}]
    prefix = f"docs{uuid.uuid4().hex[:6]}:"
    proxied = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TESTING": True,
                          "TRUSTED_PROXIES": "127.0.0.1"}).test_client()
    behind = {"Host": "10.0.0.5:8000", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "x.example, games.example"}
    assert _served_server(proxied, **behind) == [{"url": "https://games.example"}]
    assert _served_server(proxied, Host="games.example") == [{"url": "http://games.example"}]


def test_pages_carry_the_security_headers_and_every_answer_nosniff(client):
    """The pages' headers (their CSP is held to in Chromium: tests/web/test_security_headers.py)."""
    for path in ("/docs", "/play/abc_DEF-1", "/replay/abc_DEF-1"):
        r = client.get(path)
        assert r.mimetype == "text/html", path
        csp = r.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
        assert r.headers["X-Frame-Options"] == "DENY" and r.headers["Referrer-Policy"], path
        assert r.headers["X-Content-Type-Options"] == "nosniff", path
    lobby = client.get("/", headers={"Accept": "text/html"})
    assert lobby.mimetype == "text/html" and lobby.headers["X-Frame-Options"] == "DENY"
    for path in ("/game-types", "/games/nosuchgame", "/openapi.yaml", "/web/play.js"):
        r = client.get(path)
        assert r.headers["X-Content-Type-Options"] == "nosniff", path
        assert "Content-Security-Policy" not in r.headers, path
