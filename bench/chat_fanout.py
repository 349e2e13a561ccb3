"""Chat fan-out cost per delivered message, beside a move's (issue 53):
`python -m bench.chat_fanout [--spectators 100] [--messages 200]`.

A private Redis and the app in this process (no HTTP: the cost measured is the server's work
per delivery, not a socket's). One Splendor game with two seated players and `--spectators`
spectators, each a player with a key (the costliest viewer: its mutes and blocks are looked up).

- chat: a spectator writes `--messages` messages to the spectators'
  chat (api/chat/service.py `post_game`), and after each one every spectator's live chat stream
  does what its loop does (api/http/streams/chat.py): the channel's newest id (one read per
  process every 0.2 s, shared: here once per message) and its messages after its cursor (one
  read shared by the subscribers at one position: `live_page`), filtered per viewer (hidden
  messages, the viewer's mutes, its blocks: one round trip for a player). Also with anonymous
  spectators (no mutes nor blocks to look up).
- move: the same game's moves appended by the service (random legal moves), and after each
  one every spectator's game stream takes its frames from the process's hub
  (`Hub.frames_after`: the event redacted once per distinct viewer, the bytes shared).

Figures: CPU (this process: user + system) and wall per delivered message or event, and Redis
commands per delivered one (INFO commandstats, before and after). The game stream's path is
the hub's, built for fan-out (one read per process, one rendering per viewer kind); the chat
stream reads per subscriber, so its cost per delivery is its Redis round trips'."""
from __future__ import annotations

import argparse
import random
import time

from bench.common import private_redis, table


def _commands(client) -> int:
    return sum(v["calls"] for v in client.info("commandstats").values())


def _measure(work) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def run(spectators: int, messages: int) -> list[tuple]:
    with private_redis() as url:
        from app import create_app
        from tests.api.helpers import auth

        app = create_app({"REDIS_URL": url, "TESTING": True, "RATE_LIMIT": 10 ** 9, "CHAT_RATE": 10 ** 9,
                          "SSE_KEEPALIVE_S": 5, "SSE_MAX_SECONDS": 60})
        client = app.test_client()
        people = [client.post("/players", json={"name": f"p{i}"}).get_json() for i in range(spectators + 2)]
        ann, bob, watchers = people[0], people[1], people[2:]
        gid = client.post("/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}]},
                          headers=auth(ann["key"])).get_json()["id"]
        client.post(f"/games/{gid}/seats/1/claim", headers=auth(bob["key"]))
        chat, players_ = app.extensions["chat"], app.extensions["players"]
        redis_client = chat.redis
        channel = f"game:{gid}:spectators"
        writer = players_.find(watchers[0]["id"])
        rows = []
        for kind, viewers in (("chat, player spectators", [w["id"] for w in watchers]),
                              ("chat, anonymous spectators", [None] * spectators)):
            positions = [chat.newest(channel, 0) or "0-0"] * len(viewers)
            before = _commands(redis_client)

            def fan_out() -> None:
                for n in range(messages):
                    chat.post(writer, channel, f"message {n}", [], {"type": "chat"})
                    newest = chat.newest(channel, 0)  # the process's one read for all its subscribers
                    for i, viewer in enumerate(viewers):
                        if newest != positions[i]:
                            page = chat.live_page(channel, viewer, positions[i], newest)
                            assert page["messages"], "a delivery"
                            positions[i] = page["next"]

            cpu, wall = _measure(fan_out)
            deliveries = messages * len(viewers)
            rows.append((kind, deliveries, f"{cpu / deliveries * 1e6:.0f}", f"{wall / deliveries * 1e6:.0f}",
                         f"{(_commands(redis_client) - before) / deliveries:.2f}"))
        # a move's: the hub's frames for every spectator stream
        service, hub = app.extensions["games"], app.extensions["live"].hub
        feed = hub.subscribe(gid)
        rng = random.Random(1)
        cursor = feed.version
        moves = 0
        before = _commands(redis_client)
        cpu = wall = 0.0
        try:
            while moves < messages:
                game = service.load(gid)
                if game.finished:
                    break
                actor = game.definition.actors(game.state)[0]
                move = rng.choice(game.definition.legal_moves(game.state, actor))
                service.move(gid, actor, move, game.version)
                target = service.load(gid).version
                deadline = time.monotonic() + 5
                while feed.version < target and time.monotonic() < deadline:
                    time.sleep(0.001)  # the reader's XREAD brings it in

                def deliver() -> None:
                    for _ in range(spectators):
                        frames, _ = hub.frames_after(feed, cursor, None)
                        assert frames
                c, w = _measure(deliver)
                cpu, wall = cpu + c, wall + w
                cursor = feed.version
                moves += 1
        finally:
            hub.unsubscribe(feed)
        deliveries = max(1, moves * spectators)
        rows.append(("move (game stream, hub)", deliveries, f"{cpu / deliveries * 1e6:.0f}",
                     f"{wall / deliveries * 1e6:.0f}", "0 (the hub's one read per process)"))
        return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.chat_fanout", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spectators", type=int, default=100)
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="20 messages")
    args = parser.parse_args()
    rows = run(args.spectators, 20 if args.quick else args.messages)
    print(table(rows, ("delivered", "deliveries", "CPU µs each", "wall µs each", "Redis commands each")))


if __name__ == "__main__":
    main()
