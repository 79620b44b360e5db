"""Problemas: domino puzzles mined from real hands and solved exactly (``docs/problemas.md``).

Pure: the only I/O is reading the shipped set (``set.jsonl``) through importlib.resources.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from fichaflow.core.errors import FichaFlowError
from fichaflow.problemas.judge import Verdict, judge
from fichaflow.problemas.model import KINDS, THEMES, Puzzle

__all__ = ["KINDS", "THEMES", "Puzzle", "Verdict", "by_id", "judge", "load_set", "parse_set"]


def parse_set(text: str) -> tuple[Puzzle, ...]:
    """Puzzles from JSON lines (one puzzle a line)."""
    import json

    return tuple(Puzzle.from_json(json.loads(line)) for line in text.splitlines() if line.strip())


@cache
def load_set() -> tuple[Puzzle, ...]:
    """The shipped set, read once."""
    text = resources.files(__package__).joinpath("set.jsonl").read_text(encoding="utf-8")
    return parse_set(text)


@cache
def _index() -> dict[str, Puzzle]:
    return {p.id: p for p in load_set()}


def by_id(puzzle_id: str) -> Puzzle:
    """The shipped puzzle with this id; an unknown id is a Spanish error."""
    found = _index().get(puzzle_id)
    if found is None:
        raise FichaFlowError("problemas.unknown", id=puzzle_id)
    return found
