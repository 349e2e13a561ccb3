"""The moderator role, granted by the operator only: `python -m tools.moderators grant <player_id>`.

`grant <player_id> [reason]` and `revoke <player_id> [reason]` append `moderator_granted` /
`moderator_revoked` to the moderation stream (api/moderation/), by "operator"; `list` names the
moderators (those granted, and those of MODERATORS, which needs no command). The API never
grants the role. The server's settings say where (REDIS_URL, KEY_PREFIX, ...).
"""
from __future__ import annotations

import sys

from api.moderation.decider import OPERATOR
from api.settings import of_process
from wiring import bootstrap


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("grant", "revoke", "list") or (argv[0] != "list" and len(argv) < 2):
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        print("usage: python -m tools.moderators grant|revoke <player_id> [reason] | list", file=sys.stderr)
        return 2
    services = bootstrap(of_process())
    moderation = services.moderation
    if argv[0] == "list":
        for player_id in sorted(moderation.state().moderators | moderation.configured):
            how = "MODERATORS" if player_id in moderation.configured else "granted"
            player = services.players.find(player_id)
            print(f"{player_id}\t{player.name if player else '?'}\t{how}")
        return 0
    player_id, reason = argv[1], " ".join(argv[2:]) or f"{argv[0]}ed by the operator"
    if services.players.find(player_id) is None:
        print(f"no player has the id {player_id!r}", file=sys.stderr)
        return 1
    done = moderation.act(argv[0], player_id, OPERATOR, reason)
    print(f"{argv[0]}: {player_id}" + ("" if done["events"] else " (nothing to do)"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
