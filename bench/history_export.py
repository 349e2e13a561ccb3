"""Reading a whole history: NDJSON export (`GET /games/{id}/events?format=ndjson`, one request,
streamed) against paging it as JSON at the page limit (1,000 events a request, following
`next`), over HTTP against `python app.py` (one web worker), on histories of 1,000, 10,000 and
50,000 events of `bench-long` (hosted games stop before 10,000 events). The floor of the speed
is the JSON paging of the same history; the figure must be at least 20x at 10,000 events.

Two kinds of history: a finished game's (abandoned after its last move: open to everyone, so
every event but the first passes from the store to the answer without being decoded, as an
archive's crawl reads it; the append that ends it makes its whole chunks, api/history/finished_exports.py, so
its first export copies them from Redis: the ending append's time is shown; a web process keeps
the chunks it was asked for twice in its own memory, api/history/export_memory.py, so from the third
export on they are copied from there), and at 10,000 events a live game as seat 0 sees it (every
event redacted by the game's code: the other seat's draws are hidden).

Memory, two ways, for each length: (1) a fresh `python app.py` per length and way of reading:
the web worker's peak RSS above its RSS before the read (the kernel's high-water mark, reset
through /proc/<pid>/clear_refs after the game is loaded), for the export and for the paging; (2)
in-process, the peak of Python allocations (tracemalloc) while the export's generator is
consumed, beside the same history presented as one list (what a single JSON answer would hold).
Both must stay flat for the export: it reads and writes 2,000 events at a time.

    python -m bench.history_export [--quick]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import time
from pathlib import Path
from urllib.parse import urlsplit

from bench.common import grow_game, percentile, private_redis, running_server, table

LENGTHS = (1000, 10000, 50000)
EXPORTS_PER_ROUND = 5
LIVE = 10001  # the live game's length (an odd one out, so it is told apart from the finished ones)
PAGE = 1000  # today's page limit


def _get(conn: http.client.HTTPConnection, path: str, token: str, sink: bool = False) -> tuple[int, bytes]:
    """One GET on a keep-alive connection; `sink`: read the body in chunks and count it only."""
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"} if token else {})
        resp = conn.getresponse()
    except (http.client.RemoteDisconnected, ConnectionError):  # gunicorn closed an idle keep-alive
        conn.close()
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"} if token else {})
        resp = conn.getresponse()
    if resp.status != 200:
        raise RuntimeError(f"GET {path}: {resp.status} {resp.read()[:200]!r}")
    if not sink:
        return 0, resp.read()
    lines = 0
    while chunk := resp.read(65536):
        lines += chunk.count(b"\n")
    return lines, b""


def export(conn, gid, token) -> int:
    return _get(conn, f"/games/{gid}/events?format=ndjson", token, sink=True)[0]


def paged(conn, gid, token) -> int:
    count, path = 0, f"/games/{gid}/events?limit={PAGE}"
    while path:
        page = json.loads(_get(conn, path, token)[1])
        count += len(page["events"])
        path = page["next"]
    return count


def _web_worker(app_pid: int) -> int:
    """The gunicorn worker under `python app.py` (WEB_WORKERS=1): the process that serves."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                cmd = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            children.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append((int(entry), cmd))
    for master, cmd in children.get(app_pid, []):
        if b"gunicorn" in cmd:
            return children[master][0][0]
    raise RuntimeError("no gunicorn worker found")


def _kb(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def peak_above(pid: int, fn) -> int:
    """KiB the process's RSS peaked above where it stood, while fn ran."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # the high-water mark := the RSS now
    before = _kb(pid, "VmRSS")
    fn()
    return _kb(pid, "VmHWM") - before


def run(quick: bool) -> dict:
    from api.settings import Settings
    from bench import long_game
    from domain import registry
    from wiring import bootstrap

    registry.register(long_game.GAME)
    repeats = 3 if quick else 7
    results = {}
    with private_redis() as url:
        # As the server wires it (wiring.py): the append that ends a long game keeps its
        # export's chunks (EXPORT_CACHE_TTL's default, as before), with the server's other listeners.
        service = bootstrap(Settings(redis_url=url)).service
        games, archived = [], {}
        for length in LENGTHS + (LIVE,):
            created = service.create(long_game.NAME, [{"name": "a"}, {"name": "b"}], {}, seed=length)
            version = grow_game(service, created["id"], length - (length != LIVE), seed=length)
            if length != LIVE:
                version, archived[length] = _abandon(service, created["id"], version)
            games.append((length, created["id"], created["seats"][0]["token"], version))
        with running_server(url, EXTRA_GAME_MODULES="bench.long_game", WEB_WORKERS="1",
                            TURN_WORKERS="1") as base:
            u = urlsplit(base)
            conn = http.client.HTTPConnection(u.hostname, u.port, timeout=120)
            app_pid = next(int(p) for p in os.listdir("/proc") if p.isdigit() and _is_app(int(p), u.port))
            _web_worker(app_pid)
            rows = []
            for length, gid, token, version in games:
                live = length == LIVE
                _get(conn, f"/games/{gid}", token)  # the game loaded: the first export's cost is its own
                t0 = time.perf_counter()
                assert export(conn, gid, token) == version
                first = time.perf_counter() - t0
                assert paged(conn, gid, token) == version
                for _ in range(2):  # warm: the game is in the worker's cache, as a served game is
                    export(conn, gid, token)
                    paged(conn, gid, token)
                # Interleaved, so that a burst of the machine's other load falls on both; the
                # export is short (a few ms): five of it a round, for as steady a median.
                nd, js = [], []
                for _ in range(repeats):
                    nd += [_timed(lambda: export(conn, gid, token)) for _ in range(EXPORTS_PER_ROUND)]
                    js.append(_timed(lambda: paged(conn, gid, token)))
                nd_mem = "" if live else _fresh_peak(url, gid, token, export)
                js_mem = "" if live else _fresh_peak(url, gid, token, paged)
                traced, whole = ("", "") if live else _traced(service, gid)
                n, j = percentile(nd, 0.5), percentile(js, 0.5)
                rows.append(("live, seat 0" if live else "finished", version,
                             "" if live else f"{archived[length] * 1000:.0f}", f"{first * 1000:.0f}", f"{n * 1000:.0f}",
                             f"{version / n:,.0f}", f"{j * 1000:.0f}", f"{-(-version // PAGE)}", f"{j / first:.1f}x",
                             f"{j / n:.1f}x", nd_mem, js_mem, traced, whole))
                results["live" if live else version] = {
                    "first_ndjson_s": first, "ndjson_s": n, "paged_s": j, "speedup": j / n, "first_speedup": j / first,
                    "ndjson_peak_kib": nd_mem, "paged_peak_kib": js_mem, "export_traced_kib": traced,
                    "list_traced_kib": whole}
    print(f"Whole history of bench-long, medians of {repeats * EXPORTS_PER_ROUND} exports and {repeats} pagings, "
          "interleaved; one keep-alive client, "
          f"python app.py with one web worker; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.")
    print(table(rows, ("history", "events", "ending append ms", "first ndjson ms", "ndjson ms", "events/s", "paged JSON ms", "requests",
                       "first speedup", "speedup", "ndjson RSS+ KiB", "paged RSS+ KiB", "export traced KiB",
                       "one list KiB")))
    print("ending append: the append that ends the game, with its listeners (api/history/finished_exports.py makes and keeps "
          "the export's whole chunks); first: the first export a client asks for (a finished game's from the "
          "chunks its end made, read from Redis; a live game's cut from the stream); "
          "ndjson: the median of the exports after the first three (a finished game's whole chunks from the "
          "web process's memory, api/history/export_memory.py: kept from their second ask); paged: the median of the "
          "pagings. RSS+: one read on a fresh server (a chunk asked for once is not kept in memory).")
    return results


def _abandon(service, gid: str, version: int) -> tuple[int, float]:
    """Ends the game as the abandonment pass would (it is over, and open to everyone): its
    version after, and the seconds the ending append took with its listeners."""
    from api.platform.events import ABANDONED, abandoned_event
    from events.store import NewEvent

    game = service.load(gid)
    t0 = time.perf_counter()
    ended = service.append_platform(game, [NewEvent(ABANDONED, abandoned_event(3600), None)])
    took = time.perf_counter() - t0
    service.forget(gid)
    assert ended.finished and ended.version == version + 1
    return version + 1, took


def _fresh_peak(url: str, gid: str, token: str, read) -> int:
    """The web worker's peak RSS above its RSS before one read, on a server of its own (a
    worker that served bigger answers before keeps their memory, which would hide a peak)."""
    with running_server(url, EXTRA_GAME_MODULES="bench.long_game", WEB_WORKERS="1", TURN_WORKERS="1") as base:
        u = urlsplit(base)
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=120)
        _get(conn, f"/games/{gid}", token)  # the game is loaded and cached: only the read is measured
        app_pid = next(int(p) for p in os.listdir("/proc") if p.isdigit() and _is_app(int(p), u.port))
        return peak_above(_web_worker(app_pid), lambda: read(conn, gid, token))


def _traced(service, gid: str) -> tuple[int, int]:
    """KiB of Python allocations at their peak: consuming the export, and presenting the whole
    history as one list."""
    import tracemalloc

    from api.history import export as ndjson_export

    game = service.load(gid)
    viewer = service.viewer_for(game, 0)
    tracemalloc.start()
    for _ in ndjson_export.ndjson(service.store, game, viewer):
        pass
    streamed = tracemalloc.get_traced_memory()[1]
    tracemalloc.reset_peak()
    whole = service.history(game, viewer, 0, game.version)
    listed = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    del whole
    return streamed // 1024, listed // 1024


def _is_app(pid: int, port: int) -> bool:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        env = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False
    return any(c.endswith(b"app.py") for c in cmd) and f"PORT={port}".encode() in env


def _timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.history_export", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    figures = run(parser.parse_args().quick)
    at = figures[10000]
    print(f"10,000 events: NDJSON {at['speedup']:.1f}x faster than paging a finished game (floor: 20x; "
          f"{at['first_speedup']:.1f}x its first export), {figures['live']['speedup']:.1f}x a live game's seat view; "
          f"worker RSS peak +{figures[1000]['ndjson_peak_kib']} / +{at['ndjson_peak_kib']} / "
          f"+{figures[50000]['ndjson_peak_kib']} KiB, export's allocations {figures[1000]['export_traced_kib']} / "
          f"{at['export_traced_kib']} / {figures[50000]['export_traced_kib']} KiB at 1,000 / 10,000 / 50,000 events")
