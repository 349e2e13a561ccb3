"""The live path: one reader per web process follows the games its streams watch and fans each
new event out to them (hub.py), limits on open streams (limits.py), single-use stream tickets
for clients that cannot send headers (tickets.py). Flask-free; api/http/streams/game.py is the HTTP side."""
