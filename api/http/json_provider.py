"""Flask's JSON through events.codec (orjson): encoding the answers was the largest single cost
of a legal-moves read after Flask itself (41 µs for Splendor's first move list, 3 with orjson)."""
from __future__ import annotations

from typing import Any, cast

from flask import Flask, Response
from flask.json.provider import DefaultJSONProvider

from events import codec


class FastJSONProvider(DefaultJSONProvider):
    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs:  # a caller asking for json's own options (indent, ...) gets json
            return super().dumps(obj, **kwargs)
        return codec.dumps(obj)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        return codec.loads(s)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        app = cast(Flask, self._app)  # typed as Flask's sansio base, whose Response takes no body
        return app.response_class(codec.dumps_bytes(obj) + b"\n", mimetype=self.mimetype)
