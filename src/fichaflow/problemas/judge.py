"""Judging a player's answer against a puzzle's stored exact values (no search at judge time)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fichaflow.core.errors import FichaFlowError
from fichaflow.problemas.model import Puzzle


@dataclass(frozen=True, slots=True)
class Verdict:
    """``correct``: the move is as good as the best; ``done``: the puzzle is over (solved, or a
    wrong move ends it); ``replies``: the other seats' best replies to play out after a right
    move, in record notation; ``cost``: tantos the move loses against the best (0 when right);
    ``best``: the best move here; ``explain`` and ``params``: the i18n key and its parameters."""

    correct: bool
    done: bool
    replies: tuple[str, ...]
    cost: float
    best: str
    explain: str
    params: Mapping[str, Any] = field(default_factory=dict)


def _step_starts(puzzle: Puzzle) -> list[int]:
    """Index in the solution of each of the seat's moves."""
    return [i for i, s in enumerate(puzzle.solution_seats) if s == puzzle.seat]


def judge(puzzle: Puzzle, moves_so_far: Sequence[str], move: str) -> Verdict:
    """Judge ``move`` after ``moves_so_far`` (the moves made since the position: the player's
    right answers and the replies played out). A wrong turn of the line is a Spanish error."""
    starts = _step_starts(puzzle)
    at = len(moves_so_far)
    if list(moves_so_far) != list(puzzle.solution[:at]) or at not in starts:
        raise FichaFlowError("problemas.not_your_turn")
    step = starts.index(at)
    values = puzzle.steps[step] if step < len(puzzle.steps) else puzzle.values
    best = puzzle.solution[at]
    if move not in values:
        raise FichaFlowError("problemas.illegal", move=move, allowed=", ".join(values))
    best_value = values[best]
    cost = round(best_value - values[move], 3)
    if cost <= 1e-9:
        nxt = starts[step + 1] if step + 1 < len(starts) else len(puzzle.solution)
        replies = tuple(puzzle.solution[at + 1 : nxt])
        done = nxt >= len(puzzle.solution)
        key = "problemas.explain.right_done" if done else "problemas.explain.right"
        said: dict[str, Any] = {"move": move, "value": best_value}
        if puzzle.kind == "seat":
            key = f"problemas.explain.right_seat.{puzzle.decided['how']}"
            said.update(_seat_params(puzzle))
        return Verdict(True, done, replies, 0.0, best, key, said)
    params: dict[str, Any] = {
        "move": move,
        "best": best,
        "cost": _num(cost),
        "value": _num(values[move]),
        "best_value": _num(best_value),
    }
    key = "problemas.explain.wrong"
    if puzzle.kind == "seat":
        key = f"problemas.explain.wrong_seat.{puzzle.decided['how']}"
        params.update(_seat_params(puzzle))
    return Verdict(False, True, (), cost, best, key, params)


def _seat_params(puzzle: Puzzle) -> dict[str, Any]:
    """What a seat problem's explanation says of how its answer was decided: over how many
    deals of the hidden tiles, and by what margin on average."""
    return {"deals": int(puzzle.decided["deals"]), "margin": _num(round(puzzle.margin))}


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"
