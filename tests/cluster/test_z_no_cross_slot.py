"""No command the server sent crosses slots (runs last: tests/cluster's files in order).

Every command each primary received during the session was recorded (MONITOR: conftest.py's
Recorder). A command with more than one key (by the command table's key positions, or by
COMMAND GETKEYS for those whose keys move, as EVALSHA and XREAD) must name keys of one slot; and
no node ever answered CROSSSLOT (INFO errorstats)."""
from __future__ import annotations

from redis.cluster import key_slot


def _key_specs(client) -> dict:
    specs = {}
    for name, info in client.command().items():
        specs[name.lower()] = (info["first_key_pos"], info["last_key_pos"], info["step_count"],
                               "movablekeys" in info["flags"])
    return specs


def test_no_command_crossed_slots(cluster, recorder):
    some = cluster.primaries()[0].client()
    specs = _key_specs(some)
    checked = multi = 0
    crossing = []
    for port, commands in recorder.commands.items():
        for args in list(commands):
            if not args:
                continue
            name = args[0].decode(errors="replace").lower()
            spec = specs.get(name)
            if spec is None or name in ("monitor", "command"):
                continue
            first, last, step, movable = spec
            if movable:
                keys = some.execute_command("COMMAND GETKEYS", *args) if len(args) > 1 else []
            elif first == 0:
                continue
            else:
                last = len(args) + last if last < 0 else last
                keys = args[first:last + 1:step or 1]
            checked += 1
            if len(keys) > 1:
                multi += 1
                if len({key_slot(k if isinstance(k, bytes) else str(k).encode()) for k in keys}) > 1:
                    crossing.append((port, args[:6]))
    assert checked > 200, f"only {checked} keyed commands were recorded"
    assert multi > 20, "the recording holds too few multi-key commands to mean anything"
    assert not crossing, crossing[:10]
    print(f"cross-slot check: {sum(map(len, recorder.commands.values()))} commands recorded, {checked} with keys, "
          f"{multi} with several")
    for node in cluster.nodes:
        if node.alive():
            stats = node.client().info("errorstats")
            assert "errorstat_CROSSSLOT" not in stats, (node.port, stats)
