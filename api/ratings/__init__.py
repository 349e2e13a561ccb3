"""Ratings per game type: a projection of the ended games, in the order they ended.

standings.py reads an ended game's summary (the harvest's entry) into who finished where, or
says it is not rated; ledger.py keeps each identity's OpenSkill rating in Redis and counts each
game exactly once (the log's cursor moves in the same transaction as the ratings). Flask-free.
"""
