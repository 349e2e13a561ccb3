"""The HTTP edge: every module that imports Flask, Werkzeug, marshmallow or gevent."""
