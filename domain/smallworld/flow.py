"""State transitions shared by several events: losses, decline, redeployment, turn order
(rules decision 6: last conquest, extra tokens, active redeployment, defenders'
redeployment in seat order after the active seat, then the scoring by the system)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import query
from .abilities import MARKERS as MARKER_HOOKS
from .abilities import POWERS, RACES, hooks_for
from .state import DEFEND, MARKERS, OVER, PICK, REDEPLOY, REINFORCE, SCORE, START, Region, State, Turn

if TYPE_CHECKING:
    from .hooks import Ability, Ctx


def gives_harmony(race: str | None) -> bool:
    return race in RACES and RACES[race].harmony


def return_harmony(s: State) -> State:
    return s.with_(players=tuple(q._replace(harmony=False) for q in s.players))

def min_tokens(race: str | None) -> int:
    return RACES[race].min_tokens if race in RACES else 1


def _return_banner(s: State, race: str) -> State:
    """A banner goes back under its pile: drawn only once the unseen banners are gone."""
    return s.with_(returned=s.returned + (race,))


def _return_badge(s: State, power: str | None) -> State:
    """A badge is discarded; the discards are shuffled into a new stack only once the badge
    stack runs out (sources §6.2)."""
    return s.with_(power_discards=tuple(sorted(s.power_discards + (power,)))) if power else s


def emptied(region: Region) -> Region:
    """What stays in a region its race left: the marker, a bomb and a Military Objective
    (decision 7); walls, forts, towers, beasts and the champion go."""
    return Region(marker=region.marker, bomb=region.bomb, objective=region.objective)


def _drop_declined(s: State, seat: int) -> State:
    p = s.players[seat]
    s = s.set_player(seat, p._replace(declined=None, declined_power=None))
    return _return_badge(_return_banner(s, p.declined), p.declined_power)


def drop_declined_if_gone(s: State, seat: int) -> State:
    """A declined race with no region left goes back under the banner pile."""
    race = s.players[seat].declined
    if race is None or query.race_regions(s, race):
        return s
    return _drop_declined(s, seat)


def spared_by(s: State, seat: int, i: int) -> str | None:
    """Why the active race of `seat` loses no token when region i is attacked, if it does not:
    Light's Hope Chapel held (region i included), or the Draenei's Holy Light (first loss in
    each opponent's turn)."""
    if any(s.regions[j].marker in MARKER_HOOKS and MARKER_HOOKS[s.regions[j].marker].spares_losses
           for j in query.active_regions(s, seat)):
        return "chapel"
    race = s.players[seat].race
    if race in RACES and RACES[race].spares_first_loss and seat != s.seat and seat not in s.turn.spared:
        return "holy_light"
    return None


def add_defender(s: State, seat: int) -> State:
    if seat in s.turn.defenders or seat == s.seat:
        return s
    order = sorted(s.turn.defenders + (seat,), key=lambda d: (d - s.seat) % s.n)
    return s.with_(turn=s.turn._replace(defenders=tuple(order)))


def defeat(s: State, i: int) -> State:
    """The defenders of region i lose it: 1 active token discarded (a beast first; none for
    a captured champion, Light's Hope Chapel or Holy Light) and the rest back to hand for the
    end-of-turn redeployment; declined and Murloc tokens are all discarded."""
    region = s.regions[i]
    seat = region.seat
    # a captured Champion costs no token, so neither the chapel nor the Holy Light is used on it
    spared = None if seat is None or region.declined or region.champion else spared_by(s, seat, i)
    s = s.set_region(i, emptied(region))
    if seat is None or region.declined:
        s = count_forced(s, seat, region.tokens)
        return s if seat is None else drop_declined_if_gone(s, seat)
    lost = 0 if (region.champion or spared) else 1
    beasts_back = region.beasts - (1 if lost and region.beasts else 0)
    if spared == "holy_light":
        s = s.with_(turn=s.turn._replace(spared=s.turn.spared + (seat,)))
    s = count_forced(s, seat, lost)
    p = s.players[seat]
    back = region.tokens - lost
    s = s.set_player(seat, p._replace(hand=p.hand + back, beasts=p.beasts + beasts_back,
                                      champion=p.champion or region.champion))
    return add_defender(s, seat) if back else s


def count_forced(s: State, seat: int | None, lost: int) -> State:
    """Count the opponent tokens the active seat made leave the game (Forsaken)."""
    if seat is None or seat == s.seat or not lost:
        return s
    return s.with_(turn=s.turn._replace(forced=s.turn.forced + lost))


def lift(s: State, seat: int) -> State:
    """Ready your troops: every active token but 1 per region (Tauren 2) goes back to hand,
    beasts first."""
    keep = min_tokens(s.players[seat].race)
    taken = beasts = 0
    for i in query.active_regions(s, seat):
        region = s.regions[i]
        if region.tokens > keep:
            take = region.tokens - keep
            b = min(region.beasts, take)
            taken, beasts = taken + take, beasts + b
            s = s.set_region(i, region._replace(tokens=keep, beasts=region.beasts - b))
    p = s.players[seat]
    return s.set_player(seat, p._replace(hand=p.hand + taken, beasts=p.beasts + beasts)) if taken else s


def discard_beasts(s: State, seat: int) -> State:
    """Every beast of the seat leaves (start of a Beast Master turn, or decline); a region
    held by beasts alone is emptied, and so is one where a Tauren would be left alone."""
    keep = min_tokens(s.players[seat].race)
    lone = 0
    for i in query.active_regions(s, seat):
        r = s.regions[i]
        if r.beasts:
            left = r.tokens - r.beasts
            if left >= keep:
                s = s.set_region(i, r._replace(tokens=left, beasts=0))
            else:  # a lone Tauren goes back to hand, to be redeployed
                lone += left
                s = s.set_region(i, emptied(r))
    p = s.players[seat]
    return s.set_player(seat, p._replace(hand=p.hand - p.beasts + lone, beasts=0))


def decline(s: State, seat: int) -> State:
    """The active race goes into decline (1 token per region stays, Tauren 2; walls and forts
    stay; beasts, the champion, watch towers and the Humans' objectives leave; the Pandaren
    take their Harmony tokens back); an older declined race leaves the map first."""
    p = s.players[seat]
    if p.declined:
        for i in query.race_regions(s, p.declined):
            s = s.set_region(i, emptied(s.regions[i]))
        s = _drop_declined(s, seat)
    s = discard_beasts(s, seat)
    keep = min_tokens(p.race)
    for i in query.active_regions(s, seat):
        r = s.regions[i]
        s = s.set_region(i, r._replace(tokens=min(r.tokens, keep), declined=True, tower=False, champion=False))
    if RACES[p.race].placed_piece == "objective":  # the objectives leave with the race
        s = s.with_(regions=tuple(r._replace(objective=False) for r in s.regions))
    if gives_harmony(p.race):
        s = return_harmony(s)
    kept = p.power if p.power in POWERS and POWERS[p.power].works_in_decline else None
    s = s.set_player(seat, s.players[seat]._replace(race=None, power=None, hand=0, beasts=0, champion=False,
                                                     declined=p.race, declined_power=kept))
    s = s if kept else _return_badge(s, p.power)
    return drop_declined_if_gone(s, seat)


def _settle(s: State, seat: int) -> tuple:
    """(state, done): tokens in hand (and a ransomed Champion) go to the only region, or stay
    in hand when there is none; done is False when the seat must choose where they go."""
    p = s.players[seat]
    regions = query.active_regions(s, seat)
    if (p.hand == 0 and not p.champion) or not regions:
        return s, True
    if len(regions) == 1:
        if p.champion:
            s = place_champion(s, seat, regions[0], auto=True)
        return place(s, seat, regions[0], p.hand, auto=True), True
    return s, False


def tokens_to_buy(s: State) -> int:
    """Tokens the active seat may still buy at 1 coin each (Forsaken)."""
    seat = s.seat
    want = sum(h.tokens_to_buy(c) for h, c in hooks_for(s, seat))
    if not want:
        return 0
    return max(0, min(want, s.players[seat].coins, query.supply(s, s.players[seat].race)))


def after_conquests(s: State, extra: int) -> State:
    """Extra tokens arrive (Spirit Healer), then the Forsaken may buy theirs (step
    `reinforce`), then the redeployment."""
    seat = s.seat
    if extra:
        p = s.players[seat]
        s = s.set_player(seat, p._replace(hand=p.hand + extra))
    if tokens_to_buy(s):
        return s.with_(turn=s.turn._replace(step=REINFORCE))
    return redeploy(s)


def buy(s: State, count: int) -> State:
    p = s.players[s.seat]
    s = s.set_player(s.seat, p._replace(hand=p.hand + count, coins=p.coins - count))
    return redeploy(s.with_(turn=s.turn._replace(bought=count)))


def redeploy(s: State) -> State:
    seat = s.seat
    s = lift(s, seat)
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


def pending_pieces(s: State) -> list:
    """(hook, ctx) of the pieces the active seat still places one by one this turn (Military
    Objectives, Goblin bombs): some left to place and somewhere to put them."""
    out = []
    for h, c in hooks_for(s, s.seat):
        kind = h.placed_piece
        if kind and kind not in s.turn.placed and pieces_left(s, h, c) > 0 and h.piece_targets(c):
            out.append((h, c))
    return out


def pieces_left(s: State, hook: Ability, ctx: Ctx) -> int:
    if hook.placed_piece == "objective":
        return hook.pieces_to_place(ctx) - s.turn.pieces.count("objective")
    return hook.pieces_to_place(ctx)


def markers_or_score(s: State) -> State:
    step = MARKERS if movable_markers(s) or pending_pieces(s) else SCORE
    return s.with_(turn=s.turn._replace(step=step))


def place_piece(s: State, kind: str, i: int) -> State:
    """One piece placed; the Humans first take back the objectives already on the map."""
    if kind == "objective" and "objective" not in s.turn.pieces:
        s = s.with_(regions=tuple(r._replace(objective=False) for r in s.regions))
    r = s.regions[i]
    r = r._replace(objective=True) if kind == "objective" else r._replace(bomb=r.seat)
    s = s.set_region(i, r).with_(turn=s.turn._replace(pieces=s.turn.pieces + (kind,)))
    return markers_or_score(s)


def done_placing(s: State, kind: str) -> State:
    return markers_or_score(s.with_(turn=s.turn._replace(placed=s.turn.placed + (kind,))))


def move_marker(s: State, key: str, source: int, target: int) -> State:
    s = s.set_region(source, s.regions[source]._replace(marker=None))
    s = s.set_region(target, s.regions[target]._replace(marker=key))
    return markers_or_score(s.with_(turn=s.turn._replace(placed=s.turn.placed + (key,))))


def place(s: State, seat: int, i: int, count: int, auto: bool = False) -> State:
    region = s.regions[i]
    p = s.players[seat]
    beasts = min(p.beasts, count)  # beasts leave the hand first
    s = s.set_region(i, region._replace(tokens=region.tokens + count, beasts=region.beasts + beasts))
    s = s.set_player(seat, p._replace(hand=p.hand - count, beasts=p.beasts - beasts))
    return s if auto else _placed(s, seat)


def place_champion(s: State, seat: int, i: int, auto: bool = False) -> State:
    """The ransomed Champion redeployed like a token (it defends as one)."""
    s = s.set_region(i, s.regions[i]._replace(champion=True))
    s = s.set_player(seat, s.players[seat]._replace(champion=False))
    return s if auto else _placed(s, seat)


def _placed(s: State, seat: int) -> State:
    """After a placement: the seat's redeployment ends once its hand and Champion are placed."""
    if s.players[seat].hand or s.players[seat].champion:
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
    if gives_harmony(s.players[seat].race):  # the Pandaren take their Harmony tokens back
        s = return_harmony(s)
    return s.with_(seat=seat, round=rnd, turn=Turn(step))
