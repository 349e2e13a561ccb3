"""The request, its `g` and the app as objects, for the code every request runs (the hooks, the
reads' helpers). Flask's proxies (`request`, `g`, `current_app`) answer `proxy.x` by raising and
catching an AttributeError inside werkzeug's LocalProxy: ~2 µs a read, against ~0.2 µs for taking
the object once (`_get_current_object`, werkzeug's documented way) and reading it. A past read
answered from kept bytes read them some thirty times (issue 57: a fifth of its CPU in-process).
Elsewhere the proxies stay: a route's few reads cost nothing worth the noise."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from flask import current_app, g, request

if TYPE_CHECKING:
    from flask import Flask, Request


# Each is the proxy's own look-up function (werkzeug's `_get_current_object`: the context
# variable's object, then its attribute), taken once: a function of ours wrapping it and a
# typing.cast were two more calls each of the ~25 times a request asks (issue 57).
req: Callable[[], Request] = request._get_current_object  # type: ignore[attr-defined]
glob: Callable[[], Any] = g._get_current_object  # the request's `g` (Flask's _AppCtxGlobals)
app: Callable[[], Flask] = current_app._get_current_object  # type: ignore[attr-defined]

