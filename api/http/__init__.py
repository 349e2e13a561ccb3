"""The HTTP edge: every module that imports Flask, Werkzeug, Jinja, marshmallow or gevent."""
