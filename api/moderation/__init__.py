"""Moderation (issue 50): the moderator role, the fair-play signals, and voids that re-rate everyone
exactly. decider.py decides (pure), signals.py reads the rated games (pure), addresses.py keeps the
shared addresses as keyed hashes, service.py runs it over Redis. Flask-free."""
