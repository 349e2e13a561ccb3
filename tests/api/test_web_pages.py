"""The web client's pages (api/http/web_client.py): each page of web/ holds only its own parts and
is served inside the one shared shell (web/_page.html: the <head> and the header bar), its own
title, scripts and <body data-page> kept; a revalidation gets its 304; the shell is no page.
The blueprint alone, in memory (the pages' CSP: tests/api/test_docs.py)."""
from __future__ import annotations

import re

import pytest
from flask import Flask

from api.http.web_client import WEB, bp

PAGES = sorted(p.name for p in WEB.glob("*.html") if not p.name.startswith("_"))
SHARED = ('<meta name="viewport" content="width=device-width, initial-scale=1">',
          '<link rel="stylesheet" href="/web/style.css">', '<link rel="manifest" href="/manifest.webmanifest">',
          '<header class="bar">')


@pytest.fixture
def client():
    app = Flask(__name__)
    app.register_blueprint(bp)
    return app.test_client()


@pytest.mark.unit
@pytest.mark.parametrize("name", PAGES)
def test_every_page_is_served_in_the_one_shell_with_its_own_parts(client, name):
    source = (WEB / name).read_text(encoding="utf-8")
    assert source.startswith('{% extends "_page.html" %}') and "<head>" not in source  # its own parts only
    page = client.get(f"/web/{name}")
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert html.startswith("<!doctype html>") and "{%" not in html and "{{" not in html
    assert all(html.count(part) == 1 for part in SHARED), name
    title = re.search(r"\{% block title %\}(.*?)\{% endblock %\}", source).group(1)
    assert title in html.split("</head>")[0]
    scripts = re.findall(r'"([\w-]+\.js)"', re.search(r"set scripts = \[(.*)\]", source).group(1))
    assert re.findall(r'<script type="module" src="/web/([\w-]+\.js)"></script>', html) == scripts
    body = re.search(r'set page = "([\w-]+)"', source)
    assert re.search(r"<body([^>]*)>", html).group(1) == (f' data-page="{body.group(1)}"' if body else "")


@pytest.mark.unit
def test_a_page_revalidates_and_the_shell_is_no_page(client):
    for path in ("/web/friends.html", "/play/abc_DEF-1", "/profile/x"):
        first = client.get(path)
        assert first.headers["Cache-Control"] == "no-cache" and first.headers["ETag"], path
        assert client.get(path, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304, path
    assert client.get("/web/_page.html").status_code == 404
    assert client.get("/web/nosuch.html").status_code == 404
    assert client.get("/").is_json  # an API client's `/` is still JSON
