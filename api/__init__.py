"""The HTTP edge: Flask blueprints, marshmallow schemas, auth, problem+json errors, the live
stream. `service.py` (no Flask) is the application service the workers share."""
