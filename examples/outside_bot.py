"""An outside bot: a program of your own that plays on the server as a bot account, written on
the Python client generated from openapi.yaml (docs/bots.md, "Outside bots"). It signs up with
`bot: true` (or uses --key), sits in waiting games of its game type, and plays whenever one of
its games waits for it: the move whose label (the server's words) it likes best, or any. A
`429` (the server's rate limit) is waited out for its `Retry-After`, then asked again.

    python examples/outside_bot.py --server http://localhost:8000 --type splendor --games 1
"""
from __future__ import annotations

import argparse
import random
import time
import uuid
from typing import Any

from game_server_client import AuthenticatedClient, Client
from game_server_client import models as m
from game_server_client.api.games import read_game
from game_server_client.api.lobby import claim_seat, list_games
from game_server_client.api.moves import legal_moves, send_move
from game_server_client.api.players import create_player, my_games

PREFERRED = ("Buy", "Take")  # labels starting so come first (Splendor's); a random pick otherwise


def retry_after_s(response: Any) -> float:
    """A 429's `Retry-After` in seconds (this server sends seconds; 1 if it is missing)."""
    value = response.headers.get("Retry-After", "1").strip()
    return float(value) if value.replace(".", "", 1).isdigit() else 1.0


def call(endpoint: Any, *args: Any, **kwargs: Any) -> Any:
    """The endpoint's parsed answer (a model, or a Problem); each `429` is waited out for its
    `Retry-After` and the request sent again."""
    while True:
        response = endpoint.sync_detailed(*args, **kwargs)
        if response.status_code != 429:
            return response.parsed
        wait = retry_after_s(response)
        print(f"rate limited: waiting {wait:g} s", flush=True)
        time.sleep(wait)


def sign_up(server: str, name: str) -> str:
    made = call(create_player, client=Client(base_url=server), body=m.NewPlayer(name=name, bot=True))
    if not isinstance(made, m.PlayerWithKey):
        raise SystemExit(f"could not sign up: {made}")
    return made.key


def join_one(me: AuthenticatedClient, game_type: str) -> str | None:
    """Claims a free seat of a waiting game of the type: the game's id, or None when there is none."""
    page = call(list_games, client=me, type_=game_type)
    for game in page.games if isinstance(page, m.GamePage) else []:
        free = [s.seat for s in game.seats if s.open_ is True]
        if free and isinstance(call(claim_seat, game.id, free[0], client=me), m.ClaimedSeat):
            return game.id
    return None


def play_turns(me: AuthenticatedClient, rng: random.Random) -> int:
    """One move in each game that waits for this player; how many were sent."""
    sent = 0
    page = call(my_games, client=me, my_turn=m.MyGamesMyTurn.TRUE)
    for game in page.games if isinstance(page, m.GamePage) else []:
        listed = call(legal_moves, game.id, client=me)
        if not isinstance(listed, m.LegalMoves) or not listed.moves:
            continue
        labels = [w.label for w in listed.labels] if listed.labels else [""] * len(listed.moves)
        liked = [i for i, label in enumerate(labels) if label.startswith(PREFERRED)]
        i = rng.choice(liked or range(len(listed.moves)))
        call(send_move, game.id, client=me, idempotency_key=uuid.uuid4().hex,
             body=m.MoveRequest(expected_version=listed.version, move=listed.moves[i]))
        sent += 1
    return sent


def still_playing(me: AuthenticatedClient, joined: list[str]) -> bool:
    """Whether a game it joined is not over, asked of each game: the player's games list follows a
    move a moment after its answer (the server writes it after answering), so a list read straight
    after the last move may not show the game ended yet."""
    for game_id in joined:
        game = call(read_game, game_id, client=me)
        if not hasattr(game, "status") or game.status in ("waiting", "active"):
            return True  # a game not read (a Problem) counts as still on: ask again later
    return False


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    args.add_argument("--server", default="http://localhost:8000")
    args.add_argument("--type", default="splendor")
    args.add_argument("--name", default="Outside bot")
    args.add_argument("--key", help="a bot account's key (else one is made)")
    args.add_argument("--games", type=int, default=1, help="games to join, then play until they end")
    args.add_argument("--seconds", type=float, default=600)
    opts = args.parse_args()
    me = AuthenticatedClient(base_url=opts.server, token=opts.key or sign_up(opts.server, opts.name))
    rng, joined, deadline = random.Random(), [], time.monotonic() + opts.seconds
    while time.monotonic() < deadline:
        if len(joined) < opts.games and (game_id := join_one(me, opts.type)):
            joined.append(game_id)
        if not play_turns(me, rng):
            if len(joined) >= opts.games and not still_playing(me, joined):
                return  # every game it joined is over
            time.sleep(0.2)


if __name__ == "__main__":
    main()
