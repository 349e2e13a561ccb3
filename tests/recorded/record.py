"""Records one seeded all-bot game per hosted game and seat count, through the application
service, as test data: `tests/recorded/<game>/<n>-seats.json` holds the game's stored events
(exactly as the event store keeps them), the game's meta, and the final game as everyone sees
it (status, version, view, result). tests/robustness/test_recorded_games.py replays each with
the current code and compares.

    python tests/recorded/record.py                  # records every hosted game not yet recorded
    python tests/recorded/record.py --game witches   # only that game's missing recordings
    python tests/recorded/record.py --game smallworld-of-warcraft --variant team \
        --options '{"team": true}' --seats 4          # an extra recording: <variant>-<n>-seats.json

A recorded history is never rewritten: the script refuses to overwrite one, and MANIFEST.json
pins the SHA-256 of each history. When a change to a game breaks the replay of an old history,
the fix is an upcaster in the platform, not new data. (`--refresh-final` re-derives only the
`final` expectations of existing recordings, for a deliberate change of a view's shape; it
never touches the events.)
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from api.games.service import GameService  # noqa: E402
from domain import registry  # noqa: E402
from domain.contract import EVERYONE  # noqa: E402
from events.memory_store import InMemoryEventStore  # noqa: E402
from events.store import NewEvent  # noqa: E402
from tests import fakes  # noqa: E402
from workers.jobs import play_turn  # noqa: E402

MANIFEST = HERE / "MANIFEST.json"
GAME_ID = "recorded"


def hosted_games() -> list:
    """The games the server hosts: those under domain/ (not the tests' own)."""
    return [g for g in registry.all_games() if g.decide.__module__.startswith("domain.")]


def path_for(game_name: str, n: int, variant: str = "") -> Path:
    return HERE / game_name / (f"{variant}-{n}-seats.json" if variant else f"{n}-seats.json")


def history_digest(recording: dict) -> str:
    canonical = json.dumps(recording["events"], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def final_of(service: GameService, game_id: str) -> dict:
    game = service.load(game_id)
    shown = service.describe(game, None)
    return {"status": shown["status"], "version": shown["version"], "to_act": shown["to_act"],
            "view": game.definition.view(game.state, EVERYONE), "result": shown["result"]}


def play(game, n: int, options: dict | None = None, variant: str = "") -> tuple[dict, GameService]:
    """One seeded game, every seat a bot (levels in turn), played through the service the way
    the workers play it."""
    store = InMemoryEventStore()
    due: list = []
    service = fakes.service(store, lambda gid, version, actors: due.extend((version, a) for a in actors))
    levels = sorted(game.bots)
    seats = [{"bot": levels[i % len(levels)]} for i in range(n)]
    seed = f"recorded-{game.name}-{variant + '-' if variant else ''}{n}"
    game_id = service.create(game.name, seats, options or {}, seed)["id"]
    for _ in range(game.max_events * 4):
        if not due:
            break
        version, actor = due.pop(0)
        play_turn(service, game_id, version, actor)
    loaded = service.load(game_id)
    assert loaded.finished, f"{game.name} with {n} seats did not end"
    events = [{"version": e.version, "type": e.type, "actor": e.actor, "data": e.data}
              for e in store.read(game_id)]
    recording = {"game": game.name, "seats": n, "rules_version": game.rules_version, "seed": seed,
                 "meta": store.meta(game_id), "events": events, "final": final_of(service, game_id)}
    return recording, service


def replay(recording: dict) -> tuple[GameService, str]:
    """Loads a recorded history into a fresh store and rebuilds it through the service, as
    the server would (every upcaster of the platform applies on this path)."""
    store = InMemoryEventStore()
    events = [NewEvent(e["type"], e["data"], e["actor"]) for e in recording["events"]]
    store.create(GAME_ID, recording["meta"], {}, events)
    return fakes.service(store), GAME_ID


def write(path: Path, recording: dict) -> None:
    """One event per line: reviewable diffs, and a file a person can read."""
    path.parent.mkdir(parents=True, exist_ok=True)
    head = {k: v for k, v in recording.items() if k not in ("events", "final")}
    lines = ["{"]
    for key, value in head.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True)},")
    lines.append('  "events": [')
    lines.append(",\n".join("    " + json.dumps(e, sort_keys=True) for e in recording["events"]))
    lines.append("  ],")
    lines.append(f'  "final": {json.dumps(recording["final"], sort_keys=True)}')
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")


def load_manifest() -> dict:
    return json.loads(MANIFEST.read_text()) if MANIFEST.exists() else {}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", help="only these games (default: every hosted game)")
    parser.add_argument("--variant", default="", help="record an extra, named game (with --options, --seats)")
    parser.add_argument("--options", default="{}", help="the variant's creation options, as JSON")
    parser.add_argument("--seats", type=int, action="append", help="the variant's seat counts")
    parser.add_argument("--refresh-final", action="store_true",
                        help="re-derive the final expectations of existing recordings (events untouched)")
    args = parser.parse_args(argv)
    manifest = load_manifest()
    for game in hosted_games():
        if args.game and game.name not in args.game:
            continue
        counts = args.seats if args.variant and args.seats else range(game.min_seats, game.max_seats + 1)
        for n in counts:
            path = path_for(game.name, n, args.variant)
            key = str(path.relative_to(HERE))
            if path.exists():
                if args.refresh_final:
                    recording = json.loads(path.read_text())
                    service, gid = replay(recording)
                    recording["final"] = final_of(service, gid)
                    write(path, recording)
                    print(f"refreshed the final expectations of {key}")
                else:
                    print(f"kept {key} (a recorded history is never rewritten)")
                continue
            recording, _ = play(game, n, json.loads(args.options), args.variant)
            write(path, recording)
            manifest[key] = history_digest(recording)
            print(f"recorded {key}: {len(recording['events'])} events")
    MANIFEST.write_text(json.dumps(dict(sorted(manifest.items())), indent=2) + "\n")


if __name__ == "__main__":
    main()
