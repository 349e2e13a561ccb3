"""Who wins once somebody reaches the finish (31 / 27 / 23 points)."""
from __future__ import annotations

from collections.abc import Sequence

from .state import TEAMS, team_of


def finish_detail(scores: Sequence[int], goal: int, mover: int, teams: bool) -> dict | None:
    """None while nobody has reached `goal`; else the game_ended event's fields.

    `mover` is the player whose turn it was (the one who placed last)."""
    reached = [s for s, points in enumerate(scores) if points >= goal]
    if not reached:
        return None
    if teams:
        return _team_finish(scores, mover, reached)
    top = max(scores[s] for s in reached)
    best = [s for s in reached if scores[s] == top]
    if len(best) == 1:
        tie_break = "none" if len(reached) == 1 else "highest_score"
    elif mover in best:
        best, tie_break = [mover], "player_whose_turn"
    else:
        # Spec silent: two others tie on the top score via bonus points: they share the win.
        tie_break = "shared"
    return {"winners": best, "reached": reached, "tie_break": tie_break}


def _team_finish(scores: Sequence[int], mover: int, reached: list) -> dict:
    low = min(scores)
    low_teams = {team_of(s) for s, points in enumerate(scores) if points == low}
    if len(low_teams) == 1:
        winning, tie_break = 1 - low_teams.pop(), "lowest_score_loses"
    else:
        high = max(scores)
        high_teams = {team_of(s) for s, points in enumerate(scores) if points == high}
        if len(high_teams) == 1:
            winning, tie_break = high_teams.pop(), "highest_score"
        else:
            winning, tie_break = team_of(mover), "team_that_placed_last"
    return {"winners": list(TEAMS[winning]), "reached": reached, "tie_break": tie_break,
            "winning_team": winning}
