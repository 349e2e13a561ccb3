"""A chaos soak of Redis kills during Web Push and game analysis (issue 49's "done when").

    python -m bench.soak [--rounds 3] [--recover-s 90] [--outage-s 1.5]

`python app.py` (one web, turn, webhook and analysis worker each, the reconciler) against a
Redis of the soak's own (append-only, fsynced every write) that the soak SIGKILLs and starts
again on the same files, and a push service of its own (tests/api/push_service.py: it checks
every request's VAPID JWT and decrypts every payload). Two players with keys (Ann subscribed to
Web Push) play Splendor over HTTP; every move is sent with an Idempotency-Key and retried until
it is answered (a 503 while Redis is away). Each round has two faults:

- **push**: Bob moves (Ann is told `your_turn`, her push job is queued) and Redis is killed at
  once; once it is back, Bob's next move must reach Ann's device. Measured: the seconds from
  Redis's return to that push (`recovered` when within --recover-s), and any `your_turn`
  pushed after a newer notice of its game (a stale one);
- **analysis**: Ann resigns, asks for the game's analysis, and Redis is killed while its job
  runs; the analysis must be answered in the end (a read re-queues a request whose job was lost
  after a minute, the job's heartbeat telling a dead job from a long one). Measured: the seconds
  from Redis's return to the analysis answered.

At the end: every acknowledged move is in its game's history (none lost), and how many answers
were 500 (never expected). The server's log is kept in the run's directory when a fault does
not recover (printed path).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import requests

from bench.common import free_port, table

ROOT = Path(__file__).resolve().parent.parent


class Soak:
    def __init__(self, workdir: Path, recover_s: float, outage_s: float, iterations: int):
        from events import local_redis
        from tests.api.push_service import PushService

        self.workdir, self.recover_s, self.outage_s = workdir, recover_s, outage_s
        self.redis_dir = workdir / "redis"
        self.redis_url, self.redis_proc = local_redis.start(self.redis_dir)
        self.push = PushService()
        self.prefix = f"soak{uuid.uuid4().hex[:4]}:"
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        env = {**os.environ, "REDIS_URL": self.redis_url, "PORT": str(port), "HOST": "127.0.0.1",
               "KEY_PREFIX": self.prefix, "TURN_QUEUE": f"{self.prefix}turns",
               "ANALYSIS_QUEUE": f"{self.prefix}analysis", "DATA_DIR": str(workdir / "data"),
               "WEB_WORKERS": "1", "TURN_WORKERS": "1", "WEBHOOK_WORKERS": "1", "ANALYSIS_WORKERS": "1",
               "PUSH_ALLOW_LOOPBACK": "1", "ANALYSIS_ITERATIONS": str(iterations), "ARCHIVE_AFTER_S": "3600",
               "RATE_LIMIT": "1000000", "PYTHONPATH": str(ROOT)}
        self.log = open(workdir / "server.log", "wb")
        self.server = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env, stdout=self.log,
                                       stderr=subprocess.STDOUT)
        self.http = requests.Session()
        self.acked: list[tuple[str, int]] = []  # (game, version) of every acknowledged move
        self.errors_500 = 0
        self._wait(lambda: self._get("/health/ready").status_code == 200, 90, "the server ready")

    # ---- the plumbing ---------------------------------------------------------------------
    def _get(self, path: str, key: str | None = None) -> requests.Response:
        return self._call("GET", path, key)

    def _call(self, method: str, path: str, key: str | None = None, **kw) -> requests.Response:
        headers = kw.pop("headers", {})
        if key:
            headers["Authorization"] = f"Bearer {key}"
        try:
            r = self.http.request(method, self.base + path, headers=headers, timeout=10, **kw)
        except requests.RequestException:
            r = requests.Response()
            r.status_code = 599  # no answer
        if r.status_code == 500:
            self.errors_500 += 1
        return r

    def _until(self, method: str, path: str, key: str | None, ok: tuple[int, ...], timeout: float = 60, **kw):
        """The request retried (the same Idempotency-Key) until answered with one of `ok`."""
        deadline = time.monotonic() + timeout
        while True:
            r = self._call(method, path, key, **kw)
            if r.status_code in ok or time.monotonic() > deadline:
                return r
            time.sleep(0.2)

    @staticmethod
    def _wait(predicate, timeout: float, what: str):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                found = predicate()
            except Exception:
                found = None
            if found:
                return found
            time.sleep(0.1)
        raise RuntimeError(f"timed out waiting for {what}")

    def kill_redis(self) -> float:
        """SIGKILL, `outage_s` away, started again on the same files; the moment it is back."""
        from events import local_redis

        self.redis_proc.kill()
        self.redis_proc.wait()
        time.sleep(self.outage_s)
        url, proc = local_redis.start(self.redis_dir)
        assert url == self.redis_url and proc is not None
        self.redis_proc = proc
        return time.monotonic()

    def close(self) -> None:
        self.server.terminate()
        try:
            self.server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.server.kill()
            self.server.wait()
        self.log.close()
        self.push.close()
        self.redis_proc.terminate()
        self.redis_proc.wait(timeout=10)

    # ---- the players and their game ----------------------------------------------------------
    def player(self, name: str) -> dict:
        r = self._until("POST", "/players", None, (201,), json={"name": name})
        return r.json()

    def setup(self) -> None:
        self.ann, self.bob = self.player("Ann"), self.player("Bob")
        self.push.server_key = self._get("/push/vapid-public-key").json()["public_key"]
        self.device = self.push.device()
        r = self._call("POST", "/players/me/push-subscriptions", self.ann["key"], json=self.device.subscription())
        assert r.status_code in (200, 201), r.text

    def new_game(self) -> str:
        r = self._until("POST", "/games", self.ann["key"], (201,),
                        json={"type": "splendor", "seats": [{"me": True}, {"open": True}]})
        gid = r.json()["id"]
        claimed = self._until("POST", f"/games/{gid}/seats/1/claim", self.bob["key"], (200, 201))
        self.bob_token = claimed.json()["token"]
        return gid

    def move(self, gid: str, who: dict) -> int:
        """`who` moves its first legal move once it is its turn; the version after it."""
        key = who["key"] if who is self.ann else self.bob_token
        idem = uuid.uuid4().hex
        while True:
            game = self._until("GET", f"/games/{gid}", key, (200,)).json()
            moves = self._until("GET", f"/games/{gid}/moves", key, (200,)).json()["moves"]
            if not moves:
                time.sleep(0.1)
                continue
            r = self._until("POST", f"/games/{gid}/moves", key, (201, 409),
                            json={"expected_version": game["version"], "move": moves[0]},
                            headers={"Idempotency-Key": idem})
            if r.status_code == 201:
                version = r.json()["version"]
                self.acked.append((gid, version))
                return version
            idem = uuid.uuid4().hex  # 409: the game moved on (a replay of ours is 201): read again

    def pushed_since(self, gid: str, version: int) -> bool:
        return any(p["game_id"] == gid and (p.get("version") or 0) >= version for p in self.device.payloads())

    # ---- the faults ---------------------------------------------------------------------------
    def push_fault(self, gid: str) -> dict:
        self.move(gid, self.ann)
        self.move(gid, self.bob)  # Ann's your_turn: her push job queued...
        back = self.kill_redis()  # ...and Redis killed under it
        self.move(gid, self.ann)
        version = self.move(gid, self.bob)  # the next your_turn, sent after Redis's return
        try:
            self._wait(lambda: self.pushed_since(gid, version), self.recover_s, "the push")
            return {"fault": "Redis killed during push", "recovered": True, "s": time.monotonic() - back}
        except RuntimeError:
            return {"fault": "Redis killed during push", "recovered": False, "s": time.monotonic() - back}

    def analysis_fault(self, gid: str) -> dict:
        import redis
        from rq.job import Job, JobStatus

        self._until("POST", f"/games/{gid}/resign", self.ann["key"], (200,))
        asked = self._until("POST", f"/games/{gid}/analysis", self.ann["key"], (200, 202))
        assert asked.status_code in (200, 202), asked.text
        conn = redis.Redis.from_url(self.redis_url)
        jid = f"{self.prefix.replace(':', '_')}analysis-{gid}"
        try:
            self._wait(lambda: Job.fetch(jid, connection=conn).get_status() == JobStatus.STARTED, 60,
                       "the analysis job started")
        except RuntimeError:
            pass  # done already (a short game): the kill then tests a finished one
        back = self.kill_redis()

        def answered():
            r = self._get(f"/games/{gid}/analysis")
            return r.status_code == 200 and r.json().get("status") == "done"
        limit = self.recover_s + 60  # a read re-queues a lost job a minute after the request
        try:
            self._wait(answered, limit, "the analysis")
            return {"fault": "Redis killed during analysis", "recovered": True, "s": time.monotonic() - back}
        except RuntimeError:
            return {"fault": "Redis killed during analysis", "recovered": False, "s": time.monotonic() - back}

    def stale_pushes(self) -> int:
        """`your_turn` pushes received after a newer push of the same game."""
        newest: dict[str, int] = {}
        stale = 0
        for p in self.device.payloads():
            v = p.get("version") or 0
            if p["type"] == "your_turn" and v < newest.get(p["game_id"], 0):
                stale += 1
            newest[p["game_id"]] = max(v, newest.get(p["game_id"], 0))
        return stale

    def lost_moves(self) -> int:
        lost = 0
        for gid, version in self.acked:
            r = self._until("GET", f"/games/{gid}/events?after={version - 1}&limit=1", None, (200,))
            events = r.json().get("events", []) if r.status_code == 200 else []
            if not events or events[0].get("version") != version:
                lost += 1
        return lost


def run(rounds: int, recover_s: float, outage_s: float, iterations: int) -> dict:
    workdir = Path(tempfile.mkdtemp(prefix="bench-soak-"))
    soak = Soak(workdir, recover_s, outage_s, iterations)
    results = []
    try:
        soak.setup()
        for _ in range(rounds):
            gid = soak.new_game()
            results.append(soak.push_fault(gid))
            results.append(soak.analysis_fault(gid))
        lost, stale = soak.lost_moves(), soak.stale_pushes()
    finally:
        soak.close()
    kept = not all(r["recovered"] for r in results)
    if not kept:
        shutil.rmtree(workdir, ignore_errors=True)
    return {"results": results, "acked": len(soak.acked), "lost": lost, "stale": stale, "500": soak.errors_500,
            "pushes": len(soak.device.received), "log": str(workdir / "server.log") if kept else None}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the two faults")
    parser.add_argument("--recover-s", type=float, default=90, help="how long a fault may take to recover")
    parser.add_argument("--outage-s", type=float, default=1.5, help="how long Redis stays dead each time")
    parser.add_argument("--iterations", type=int, default=300, help="ANALYSIS_ITERATIONS: an analysis of seconds")
    args = parser.parse_args()
    out = run(args.rounds, args.recover_s, args.outage_s, args.iterations)
    rows = [(r["fault"], "yes" if r["recovered"] else "NO", f"{r['s']:.1f}") for r in out["results"]]
    print(table(rows, ("fault", "recovered", "s after Redis was back")))
    print(f"\nmoves acknowledged {out['acked']}, lost {out['lost']}; pushes received {out['pushes']}, "
          f"stale your_turn {out['stale']}; answers 500: {out['500']}")
    if out["log"]:
        print(f"the server's log: {out['log']}")
    sys.exit(0 if all(r["recovered"] for r in out["results"]) and not out["lost"] and not out["500"] else 1)


if __name__ == "__main__":
    main()
