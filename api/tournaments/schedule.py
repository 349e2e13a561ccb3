"""A balanced multi-seat round robin (issue 52): the whole schedule of a round robin of n
players at tables of 3 to 6 seats, made once for the field and read round by round
(api/tournaments/pairing.py, algorithm version 2), so that every two players meet as evenly as
the counts allow. Pure, and integer-only: any language recomputes it exactly.

The construction, for n players, the round's table sizes `sizes` and `bye_count` byes a round
(pairing.plan), over `rounds` rounds; players are the numbers 0..n-1 (pairing.py maps them to
the field's `order`):

1. **Start**: round by round, the byes go to the players with the fewest byes so far (ties: the
   rotation `(p - r * bye_count) mod n`, lowest first); each table starts with the first player
   left and takes, one by one, the player left who has met those seated least (ties: the lowest).
2. **Cost**: the sum over every pair of players of f(c) = c^3, c the times they share a table.
   The meetings add up to the same total whatever the schedule, and a strictly convex f is
   lowest when the counts are as equal as they can be; the cube (rather than the square) also
   prefers, among equally spread schedules, fewer pairs meeting often (so fewer never meeting).
3. **Local search**: first improvement over every swap of two players between two groups of
   one round (the tables, and the round's byes as a group whose pairs do not count: a swap with
   the byes is made only when the player leaving them has more byes than the one taking its place,
   so byes stay within one of each other), until no swap lowers the cost.
4. **Iterated**: KICKS times, KICK_SWAPS random swaps (splitmix64, seeded with the first 16 hex
   digits of sha256("rr:<n>:<sizes>:<bye_count>:<rounds>"), `below(m)` its next value mod m;
   a round, two of its groups, a player of each, in that order; a swap with the byes only as in
   3), then the local search again; the lowest-cost schedule seen is kept (the first on a tie).

Measured (bench/tournaments.py, `round robin spread`; figures in bench/README.md, issue 52): for
n = 5..16 at 3 to 6 seats, the minimal number of rounds (ceil((n - 1) / (seats - 1))), the most
and least any pair meets differ by at most 2 in every case but three (5 seats, 10 players; 6
seats, 12 and 13: 3), and by 0 where a resolvable design exists and was found (9 at 3 seats, 16
at 4 seats: every pair exactly once). The old round-by-round greedy (version 1) left 12 at 4
seats with 12 pairs that never met and 16 at 4 with 8.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

M64 = (1 << 64) - 1
KICKS = 40
KICK_SWAPS = 3
Group = list[int]


class SplitMix64:
    """splitmix64 (Steele, Lea and Flood, 2014): `below(m)` is its next 64-bit value mod m."""

    def __init__(self, seed: int) -> None:
        self.state = seed & M64

    def below(self, m: int) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & M64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return (z ^ (z >> 31)) % m


def _up(c: int) -> int:
    """f(c + 1) - f(c), f(c) = c^3."""
    return 3 * c * c + 3 * c + 1


class _Search:
    def __init__(self, n: int, sizes: tuple[int, ...], bye_count: int, rounds: int) -> None:
        self.n, self.sizes, self.tables = n, sizes, len(sizes)
        self.counts = [[0] * n for _ in range(n)]
        self.byes = [0] * n
        self.plan: list[list[Group]] = [self._start(r, bye_count) for r in range(rounds)]
        self.cost = sum(c**3 for a, row in enumerate(self.counts) for c in row[a + 1 :])

    def _start(self, r: int, bye_count: int) -> list[Group]:
        n, counts = self.n, self.counts
        byes = sorted(sorted(range(n), key=lambda p: (self.byes[p], (p - r * bye_count) % n))[:bye_count])
        for p in byes:
            self.byes[p] += 1
        left = [p for p in range(n) if p not in byes]
        groups: list[Group] = []
        for size in self.sizes:
            table = [left.pop(0)]
            while len(table) < size:
                k = min(range(len(left)), key=lambda k: (sum(counts[left[k]][s] for s in table), k))
                table.append(left.pop(k))
            for a in table:
                for b in table:
                    if a != b:
                        counts[a][b] += 1
            groups.append(table)
        return groups + ([byes] if byes else [])

    def _fair(self, x: int, y: int, a: int, b: int) -> bool:
        """A swap of a (group x) and b (group y): with the byes only towards fewer byes."""
        if x >= self.tables:
            return self.byes[a] > self.byes[b]  # a leaves the byes, b takes one
        if y >= self.tables:
            return self.byes[b] > self.byes[a]
        return True

    def _delta(self, groups: list[Group], x: int, i: int, y: int, j: int) -> int:
        counts, (a, b), d = self.counts, (groups[x][i], groups[y][j]), 0
        if x < self.tables:
            d += sum(_up(counts[b][o]) - _up(counts[a][o] - 1) for o in groups[x] if o != a)
        if y < self.tables:
            d += sum(_up(counts[a][o]) - _up(counts[b][o] - 1) for o in groups[y] if o != b)
        return d

    def _swap(self, groups: list[Group], x: int, i: int, y: int, j: int) -> None:
        self.cost += self._delta(groups, x, i, y, j)
        a, b = groups[x][i], groups[y][j]
        for here, leaving, coming in ((x, a, b), (y, b, a)):
            if here < self.tables:
                for o in groups[here]:
                    if o != leaving:
                        self._meet(leaving, o, -1)
                        self._meet(coming, o, 1)
            else:
                self.byes[leaving] -= 1
                self.byes[coming] += 1
        groups[x][i], groups[y][j] = b, a

    def _meet(self, a: int, b: int, by: int) -> None:
        self.counts[a][b] += by
        self.counts[b][a] += by

    def climb(self) -> None:
        improved = True
        while improved:
            improved = False
            for groups in self.plan:
                for x in range(len(groups)):
                    for y in range(x + 1, len(groups)):
                        for i in range(len(groups[x])):
                            for j in range(len(groups[y])):
                                if self._fair(x, y, groups[x][i], groups[y][j]) and self._delta(groups, x, i, y, j) < 0:
                                    self._swap(groups, x, i, y, j)
                                    improved = True

    def kick(self, rng: SplitMix64) -> None:
        for _ in range(KICK_SWAPS):
            groups = self.plan[rng.below(len(self.plan))]
            if len(groups) < 2:
                continue
            x = rng.below(len(groups))
            y = rng.below(len(groups) - 1)
            y += y >= x
            i, j = rng.below(len(groups[x])), rng.below(len(groups[y]))
            if self._fair(x, y, groups[x][i], groups[y][j]):
                self._swap(groups, x, i, y, j)

    def snapshot(self) -> list[list[Group]]:
        return [[list(g) for g in groups] for groups in self.plan]


@lru_cache(maxsize=256)
def schedule(
    n: int, sizes: tuple[int, ...], bye_count: int, rounds: int
) -> tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...]:
    """Each round's (tables, byes) over the players 0..n-1, each table and the byes sorted."""
    if n <= 0 or rounds <= 0 or not sizes:
        return ()
    digest = hashlib.sha256(f"rr:{n}:{list(sizes)}:{bye_count}:{rounds}".encode()).hexdigest()
    rng = SplitMix64(int(digest[:16], 16))
    search = _Search(n, sizes, bye_count, rounds)
    search.climb()
    best, kept = search.cost, search.snapshot()
    for _ in range(KICKS):
        search.kick(rng)
        search.climb()
        if search.cost < best:
            best, kept = search.cost, search.snapshot()
    tables = len(sizes)
    return tuple(
        (
            tuple(tuple(sorted(g)) for g in groups[:tables]),
            tuple(sorted(groups[tables])) if len(groups) > tables else (),
        )
        for groups in kept
    )


def spread(n: int, plan: tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...]) -> tuple[int, int]:
    """(the least, the most) times any two players share a table in the schedule."""
    counts = [[0] * n for _ in range(n)]
    for tables, _ in plan:
        for table in tables:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    counts[a][b] += 1
    found = [counts[a][b] for a in range(n) for b in range(a + 1, n)]
    return (min(found), max(found)) if found else (0, 0)
