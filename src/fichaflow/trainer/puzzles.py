"""What the trainer needs of a set of puzzles, and nothing more: their ids, themes and starting
ratings, each one's position as the page draws it (never its answer), and the judging of one
move. :mod:`fichaflow.problemas` provides the shipped set; ``app.py`` hands it in (as an
object of this shape) so that the trainer's endpoints do not depend on how puzzles are made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import Engine


@dataclass(frozen=True, slots=True)
class Judged:
    """One move judged: right or wrong, whether the puzzle is over, the other seats' replies
    that follow a right move, what a wrong one costs in tantos, the best move, and the words
    that explain it (an i18n key and its parameters)."""

    correct: bool
    done: bool
    replies: Sequence[str] = ()
    cost: int = 0
    best: str | None = None
    explanation: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)


class Puzzles(Protocol):
    def ids(self) -> Sequence[str]: ...

    def refresh(self, engine: Engine) -> bool:
        """Read again the puzzles the database keeps (if any); whether the set changed."""
        ...

    def themes(self, puzzle: str) -> Sequence[str]: ...

    def rating(self, puzzle: str) -> int:
        """The puzzle's starting rating (shown points), before anyone has tried it."""
        ...

    def position(self, puzzle: str) -> dict[str, Any]:
        """The position as the page draws it; never the answer."""
        ...

    def judge(self, puzzle: str, moves: Sequence[str], move: str) -> Judged:
        """``move`` after the player's ``moves`` so far (each judged right before); refuses an
        unknown or illegal move with a ``FichaFlowError``."""
        ...
