"""A browser-like client: an EventSource implementation (aiohttp-sse-client, which follows the
EventSource processing model: `retry:`, Last-Event-ID on reconnect, a non-200 answer fails the
connection for good) against `python app.py`. It opens the stream with a ticket, plays its
seat from each event's `to_act` with no other read, and after `end` its reconnect is answered
204, which closes it: it does not reconnect every `retry` ms."""
from __future__ import annotations

import asyncio
import json

import aiohttp
import requests
from aiohttp_sse_client.client import READY_STATE_CLOSED, EventSource


async def _watch(url, play=None):
    seen, opened, status = [], [], []

    async with aiohttp.ClientSession(trace_configs=[_statuses(status)]) as session:
        source = EventSource(url, session=session, on_open=lambda: opened.append(1))
        await source.connect()
        try:
            async for message in source:
                data = json.loads(message.data)
                seen.append((message.type, message.last_event_id, data))
                if play is not None and message.type in ("state", "game_event"):
                    await play(session, data)
        except ConnectionError:
            pass  # the reconnect after `end` is refused: the source is closed
        state = source.ready_state
        await source.close()
    return seen, len(opened), status, state


def _statuses(found):
    trace = aiohttp.TraceConfig()

    async def on_end(session, context, params):
        if params.method == "GET":  # the stream's requests, not the moves
            found.append(params.response.status)

    trace.on_request_end.append(on_end)
    return trace


def test_an_eventsource_plays_its_seat_by_ticket_and_stops_after_end(http_server):
    created = requests.post(f"{http_server}/games", json={
        "type": "high-card", "seats": [{"name": "Ann"}, {"bot": "random"}], "options": {"rounds": 1}}).json()
    gid, token = created["id"], created["seats"][0]["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    ticket = requests.post(f"{http_server}/games/{gid}/stream-tickets", headers=bearer).json()
    moved = []

    async def play(session, data):
        if 0 in data["to_act"] and not moved:  # whose turn it is, from the stream alone
            moved.append(data["version"])
            async with session.post(f"{http_server}/games/{gid}/moves", headers={**bearer, "Idempotency-Key": "ann-1"},
                                    json={"expected_version": data["version"], "move": {"type": "bid", "chips": 1}}) as r:
                assert r.status == 201, await r.text()

    seen, opened, statuses, state = asyncio.run(asyncio.wait_for(_watch(http_server + ticket["stream"], play), 60))
    kinds = [k for k, _, _ in seen]
    assert kinds[0] == "state" and seen[0][2]["you"] == 0 and seen[0][2]["view"]["hand"]  # the ticket's seat
    assert kinds[-1] == "end" and kinds.count("end") == 1
    final = seen[-1][2]["version"]
    assert seen[-1][1] == str(final)  # the id a reconnect sends back
    ids = [int(i) for k, i, _ in seen if k == "game_event"]
    assert ids == list(range(seen[0][2]["version"] + 1, final + 1))
    assert moved and statuses == [200, 204] and opened == 1 and state == READY_STATE_CLOSED


def test_a_spectators_eventsource_also_stops_after_end(http_server):
    created = requests.post(f"{http_server}/games", json={
        "type": "high-card", "seats": [{"bot": "random"}, {"bot": "bold"}], "options": {"rounds": 1}}).json()
    seen, opened, statuses, state = asyncio.run(asyncio.wait_for(
        _watch(f"{http_server}/games/{created['id']}/stream"), 60))
    assert seen[-1][0] == "end" and statuses[-1] == 204 and state == READY_STATE_CLOSED
    assert all(s == 200 for s in statuses[:-1])  # (a bot game may end before the first connection)
