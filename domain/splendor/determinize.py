"""determinize(state, seat, rng): a Splendor state the seat cannot tell from `state` (issue 34).

What a seat cannot see, per card level:
- the content and order of that level's deck (only its size is public);
- the card of every blind reserve of another seat (only its level, and its place among that
  seat's reserved cards, are public).
Everything else (market, nobles, supply, tokens, bonuses, bought cards, face-up reserves, the
seat's own blind reserves) is seen by the seat and kept.

Per level, the unseen cards (the deck plus the other seats' blind reserves of that level) are
collected in a canonical order (sorted), shuffled with `rng`, then dealt: first into the other
seats' blind reserves of that level (seat by seat, in reserving order), the rest into the deck.
So the result depends on the seat's information alone: any state the seat cannot tell from
this one gives the same determinization for the same rng.
"""
from __future__ import annotations

import random

from .data import CARDS
from .state import State

_LEVEL = tuple(card.level - 1 for card in CARDS)  # card index -> deck row


def determinize(state: State, seat: int, rng: random.Random) -> State:
    players = state.players
    pools: list[list[int]] = [list(deck) for deck in state.decks]
    hidden = [s for s in range(state.n) if s != seat and players[s].blind]
    if not hidden and all(len(deck) < 2 for deck in state.decks):
        return state  # nothing the seat cannot see (or nothing to reorder)
    for s in hidden:
        for card in players[s].blind:
            pools[_LEVEL[card]].append(card)
    for pool in pools:
        pool.sort()
        rng.shuffle(pool)
    if hidden:
        new_players = list(players)
        for s in hidden:
            player = players[s]
            swap = {card: pools[_LEVEL[card]].pop() for card in player.blind}
            new_players[s] = player._replace(
                reserved=tuple(swap.get(c, c) for c in player.reserved),
                blind=tuple(swap[c] for c in player.blind))
        players = tuple(new_players)
    return state._replace(decks=tuple(tuple(pool) for pool in pools), players=players)
