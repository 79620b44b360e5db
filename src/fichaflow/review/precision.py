"""How much work a review does: three named levels, from a quick look to deeper study.

Work limits only, no clock: the same position and seed always give the same review, on any
machine. ``normal`` is sized so that a whole hand of one seat takes a few seconds on one core
(figures in ``docs/benchmarks.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from fichaflow.core.errors import FichaFlowError


@dataclass(frozen=True, slots=True)
class Precision:
    """The work limits of one decision's evaluation.

    ``samples`` deals of the hidden tiles; ``playouts`` playouts per deal and move; exact solving
    of each deal once ``exact_after`` tiles are on the line, with at most ``nodes`` solver nodes
    for one deal (past that, that deal is played out instead); ``hindsight_nodes`` bounds the
    exact solve of the true position, move by move."""

    name: str
    samples: int
    playouts: int
    exact_after: int
    nodes: int
    hindsight_nodes: int


PRECISIONS: Final[dict[str, Precision]] = {
    p.name: p
    for p in (
        Precision("fast", samples=80, playouts=4, exact_after=14, nodes=4_000,
                  hindsight_nodes=150_000),
        Precision("normal", samples=300, playouts=8, exact_after=12, nodes=12_000,
                  hindsight_nodes=600_000),
        Precision("deep", samples=1500, playouts=16, exact_after=10, nodes=100_000,
                  hindsight_nodes=8_000_000),
    )
}  # fmt: skip
DEFAULT_PRECISION: Final = "normal"


def precision_named(name: str) -> Precision:
    """The level called ``name``; a Spanish error listing the levels otherwise."""
    found = PRECISIONS.get(name)
    if found is None:
        raise FichaFlowError("review.precision", value=name, allowed=", ".join(PRECISIONS))
    return found
