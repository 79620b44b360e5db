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
    """The work limits of a review.

    Each decision: ``samples`` deals of the hidden tiles, each finished by ``playouts`` playouts
    per move; once ``exact_after`` tiles are on the line (or nothing is left to guess) the first
    deals are also solved exactly, with at most ``nodes`` solver nodes for one deal,
    ``exact_total`` for the decision and ``exact_hand`` for the decisions of a whole hand (the
    solving stops at the first deal past them, unless too few are solved yet: then it goes on
    once with the ``rescue_`` budgets), and their exact values correct the playouts'
    mean (see :func:`fichaflow.review.evaluate.evaluate`). ``normal`` solves from 6 tiles on
    the line: ``bench/repaso_truth.py`` measured playouts alone 7 tantos from an exact reference
    there (figures in ``docs/benchmarks.md``); its 900,000 nodes a decision, three times what it
    had, bring its best move to that reference's in 90% of 90 venezuela decisions instead of 84%,
    for 1.4 to 1.75 times the CPU a hand at the median. The hindsight of a whole hand is solved
    from its last decision back to its first by one solver, whose table of solved positions
    serves them all (the deal and the side are the same), within ``hindsight_nodes`` for the
    hand: the first decision, the costliest (a salida can take more than a million nodes), reads
    what the later ones solved and gets all they leave. At ``normal`` that is enough for the
    first decision too."""

    name: str
    samples: int
    playouts: int
    exact_after: int
    nodes: int
    exact_total: int
    exact_hand: int
    hindsight_nodes: int
    rescue_nodes: int = 0
    rescue_total: int = 0
    """When the solving stops before 30 deals are solved (a deal past ``nodes``, early in a
    hand), it goes on once with ``rescue_nodes`` a deal, the decision within ``rescue_total``
    (0: never)."""


PRECISIONS: Final[dict[str, Precision]] = {
    p.name: p
    for p in (
        Precision("fast", samples=80, playouts=4, exact_after=14, nodes=4_000,
                  exact_total=150_000, exact_hand=300_000, hindsight_nodes=300_000),
        Precision("normal", samples=300, playouts=8, exact_after=6, nodes=40_000,
                  exact_total=900_000, exact_hand=4_800_000, hindsight_nodes=3_000_000,
                  rescue_nodes=250_000, rescue_total=1_000_000),
        Precision("deep", samples=1500, playouts=16, exact_after=5, nodes=100_000,
                  exact_total=20_000_000, exact_hand=60_000_000, hindsight_nodes=40_000_000),
    )
}  # fmt: skip
DEFAULT_PRECISION: Final = "normal"


def precision_named(name: str) -> Precision:
    """The level called ``name``; a Spanish error listing the levels otherwise."""
    found = PRECISIONS.get(name)
    if found is None:
        raise FichaFlowError("review.precision", value=name, allowed=", ".join(PRECISIONS))
    return found
