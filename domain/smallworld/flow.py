"""State transitions shared by several events: losses, decline, redeployment, turn order
(rules decision 6: last conquest, extra tokens, active redeployment, defenders'
redeployment in seat order after the active seat, then the scoring by the system)."""
from __future__ import annotations

from . import query
from .abilities import MARKERS as MARKER_HOOKS
from .state import DEFEND, MARKERS, OVER, PICK, REDEPLOY, SCORE, START, Region, State, Turn


def _return_banner(s: State, race: str) -> State:
    return s.with_(race_pile=tuple(sorted(s.race_pile + (race,))))


def _drop_declined_if_gone(s: State, seat: int) -> State:
    """A declined race with no region left goes back under the banner pile."""
    race = s.players[seat].declined
    if race is None or query.race_regions(s, race):
        return s
    s = s.set_player(seat, s.players[seat]._replace(declined=None))
    return _return_banner(s, race)


def defeat(s: State, i: int) -> State:
    """The defenders of region i lose it: 1 active token discarded and the rest back to
    hand for the end-of-turn redeployment; declined and Murloc tokens are all discarded."""
    region = s.regions[i]
    s = s.set_region(i, Region(marker=region.marker))
    if region.seat is None:
        return s
    seat = region.seat
    if region.declined:
        return _drop_declined_if_gone(s, seat)
    p = s.players[seat]
    s = s.set_player(seat, p._replace(hand=p.hand + region.tokens - 1))
    if region.tokens > 1 and seat not in s.turn.defenders:
        order = sorted(s.turn.defenders + (seat,), key=lambda d: (d - s.seat) % s.n)
        s = s.with_(turn=s.turn._replace(defenders=tuple(order)))
    return s


def lift(s: State, seat: int) -> State:
    """Ready your troops: every active token but 1 per region goes back to hand."""
    taken = 0
    for i in query.active_regions(s, seat):
        region = s.regions[i]
        if region.tokens > 1:
            taken += region.tokens - 1
            s = s.set_region(i, region._replace(tokens=1))
    p = s.players[seat]
    return s.set_player(seat, p._replace(hand=p.hand + taken)) if taken else s


def decline(s: State, seat: int) -> State:
    """The active race goes into decline (1 token per region stays, walls stay); an older
    declined race leaves the map first."""
    p = s.players[seat]
    if p.declined:
        for i in query.race_regions(s, p.declined):
            s = s.set_region(i, Region(marker=s.regions[i].marker))
        s = _return_banner(s, p.declined)
    for i in query.active_regions(s, seat):
        s = s.set_region(i, s.regions[i]._replace(tokens=1, declined=True))
    s = s.set_player(seat, p._replace(race=None, power=None, hand=0, declined=p.race))
    s = s.with_(power_pile=tuple(sorted(s.power_pile + (p.power,))))
    return _drop_declined_if_gone(s, seat)


def _settle(s: State, seat: int) -> tuple:
    """(state, done): tokens in hand go to the only region, or stay in hand when there is
    none; done is False when the seat must choose where they go."""
    hand = s.players[seat].hand
    regions = query.active_regions(s, seat)
    if hand == 0 or not regions:
        return s, True
    if len(regions) == 1:
        return place(s, seat, regions[0], hand, auto=True), True
    return s, False


def after_conquests(s: State, extra: int) -> State:
    seat = s.seat
    s = lift(s, seat)
    if extra:
        p = s.players[seat]
        s = s.set_player(seat, p._replace(hand=p.hand + extra))
    s, done = _settle(s, seat)
    if not done:
        return s.with_(turn=s.turn._replace(step=REDEPLOY))
    return next_defender(s)


def next_defender(s: State) -> State:
    defenders = s.turn.defenders
    while defenders:
        s, done = _settle(s, defenders[0])
        if not done:
            return s.with_(turn=s.turn._replace(step=DEFEND, defenders=defenders))
        defenders = defenders[1:]
    return markers_or_score(s.with_(turn=s.turn._replace(defenders=())))


def movable_markers(s: State) -> list:
    """(key, region) of the markers the active seat still places this turn."""
    race = s.players[s.seat].race
    if race is None:
        return []
    return [(r.marker, i) for i, r in enumerate(s.regions)
            if r.race == race and not r.declined and r.marker in MARKER_HOOKS
            and MARKER_HOOKS[r.marker].moved_by_owner and r.marker not in s.turn.placed]


def markers_or_score(s: State) -> State:
    step = MARKERS if movable_markers(s) else SCORE
    return s.with_(turn=s.turn._replace(step=step))


def move_marker(s: State, key: str, source: int, target: int) -> State:
    s = s.set_region(source, s.regions[source]._replace(marker=None))
    s = s.set_region(target, s.regions[target]._replace(marker=key))
    return markers_or_score(s.with_(turn=s.turn._replace(placed=s.turn.placed + (key,))))


def place(s: State, seat: int, i: int, count: int, auto: bool = False) -> State:
    region = s.regions[i]
    s = s.set_region(i, region._replace(tokens=region.tokens + count))
    p = s.players[seat]
    s = s.set_player(seat, p._replace(hand=p.hand - count))
    if auto or s.players[seat].hand:
        return s
    if s.turn.step == DEFEND:
        s = s.with_(turn=s.turn._replace(defenders=s.turn.defenders[1:]))
    return next_defender(s)


def next_turn(s: State) -> State:
    seat = (s.seat + 1) % s.n
    rnd = s.round + (seat == 0)
    if rnd > s.rounds:
        return s.with_(turn=Turn(OVER))
    step = PICK if s.players[seat].race is None else START
    return s.with_(seat=seat, round=rnd, turn=Turn(step))
