"""Push sends per second per transport (issue 54): `python -m bench.push_transports [--quick]`.

A private Redis, the composition root's push sender (workers/push/sending.py) over the three
transports, each against the tests' fake of its service on 127.0.0.1 in this process (Web Push:
tests/api/push_service.py, which checks the VAPID JWT and decrypts each payload; FCM's HTTP v1
API with its OAuth2 token endpoint: tests/api/fcm_service.py; APNs over HTTP/2:
tests/api/apns_service.py). For each transport, `--players` players with one registration each
and `--notices` inbox notices apiece are pushed by `--threads` sender threads (one push job's
work each, as the webhook workers' dispatcher runs them), and the figures are: pushes taken per
second (wall), and the CPU (user + system, this process: the sender AND the fake service, both
Python) per push.

The fakes share the process and its cores with the sender, so these are floors of the sender's
own throughput, comparable between transports on the same host, not the services' speeds."""
from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor

import redis

from bench.common import private_redis, table


def rig(redis_url: str, key_file: str):
    from events.memory_store import InMemoryEventStore
    from tests import fakes
    from tests.api.apns_service import ApnsService
    from tests.api.fcm_service import FcmService
    from tests.api.push_service import PushService

    fcm, apns, web = FcmService(), ApnsService(), PushService()
    services = fakes.services(
        InMemoryEventStore(), redis=redis.Redis.from_url(redis_url), key_prefix=f"bp{uuid.uuid4().hex[:6]}:",
        push_allow_loopback=True, vapid_key_file=key_file, push_max_per_player=10,
        fcm_credentials=json.dumps(fcm.credentials()), fcm_url=fcm.origin, apns_key=apns.key_pem(),
        apns_key_id=apns.key_id, apns_team_id=apns.team_id, apns_bundle_id=apns.bundle_id, apns_url=apns.origin)
    web.server_key = services.pushes.public_key()
    return services, {"webpush": web, "fcm": fcm, "apns": apns}


def run(services, fake, kind: str, players: int, notices: int, threads: int) -> dict:
    subs, inbox = services.pushes.subs, services.players
    ids = [f"{kind}-{uuid.uuid4().hex[:8]}" for _ in range(players)]
    devices = []
    for player_id in ids:
        device = fake.device()
        devices.append(device)
        if kind == "webpush":
            info = device.subscription()
            subs.add(player_id, info["endpoint"], info["keys"]["p256dh"], info["keys"]["auth"], "en")
        else:
            subs.add_native(player_id, kind, device.token, "en")
        pipe = inbox.redis.pipeline(transaction=False)
        for n in range(notices):
            inbox.write_inbox(pipe, player_id, {"type": "game_started", "game_id": f"g{n}", "game_type": "splendor",
                                                "version": 1, "at": int(time.time() * 1000), "seat": 0})
        pipe.execute()
    services.pushes.send_now(ids[0])  # warm: the VAPID key, the OAuth2 token, the HTTP/2 connection
    sent_before = sum(len(d.payloads()) for d in devices)
    cpu, wall = time.process_time(), time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        outcomes = list(pool.map(services.pushes.send_now, ids[1:]))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    sent = sum(len(d.payloads()) for d in devices) - sent_before
    assert sent == (players - 1) * notices, (kind, sent, outcomes[:3])
    return {"transport": kind, "threads": threads, "pushes": sent, "seconds": round(wall, 2),
            "per_s": round(sent / wall), "cpu_ms_per_push": round(cpu * 1000 / sent, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.push_transports", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="a few hundred pushes a run")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--notices", type=int, default=20)
    parser.add_argument("--threads", default="1,8", help="sender threads per run (comma-separated)")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    players = args.players or (11 if args.quick else 51)
    rows = []
    with private_redis() as url, tempfile.TemporaryDirectory() as tmp:
        services, fakes_ = rig(url, os.path.join(tmp, "vapid.pem"))
        for kind in ("webpush", "fcm", "apns"):
            for threads in (int(t) for t in args.threads.split(",")):
                rows.append(run(services, fakes_[kind], kind, players, args.notices, threads))
        for fake in fakes_.values():
            assert not fake.problems, fake.problems
            fake.close()
    print(table([tuple(r.values()) for r in rows], tuple(rows[0])))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
