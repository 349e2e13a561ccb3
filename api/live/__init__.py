"""The live path: one reader per web process follows the games its streams watch and fans each
new event out to them (hub.py, and its parts: feeds.py, fanout.py, reader.py, streams.py,
direct.py, frames.py), limits on open streams (stream_limits.py, leases.py), single-use stream
tickets for clients that cannot send headers (tickets.py). Flask-free; api/http/streams/ is the HTTP side."""
