"""How many nodes the exact solver visits to value every candidate move of a sampled deal.

Positions: the decisions of hands played by ``jugador`` bots (as ``bench/repaso_speed.py`` deals
them) with ``--min-line`` to ``--max-line`` tiles on the line; for each, ``--deals`` deals of the
hidden tiles consistent with the seat's view (dealt as the Repaso deals them, from a fixed seed),
each solved for every candidate move with at most ``--cap`` nodes. Node counts do not depend on
the machine, so two checkouts can be compared by running this in each; the CPU time is printed
for reference only (run both side by side to compare it).

    python bench/solver_nodes.py --modes mano_a_mano --hands 10 --min-line 5 --max-line 8
    python bench/solver_nodes.py --modes venezuela,tres --min-line 9 --max-line 13
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from dataclasses import dataclass, field
from functools import partial

from fichaflow.review.evaluate import REVIEW
from fichaflow.search.decide import DealSearch, candidates
from fichaflow.search.engine import FastHand
from fichaflow.search.solver import OutOfNodes, Solver
from fichaflow.search.value import Valuer, valuer_for
from repaso_speed import mid_hand_views  # the bench's hands (this script's folder is on the path)


@dataclass
class Tally:
    """Each deal's node count, how many ran out of nodes, and the CPU time spent solving."""

    cap: int
    counts: list[int] = field(default_factory=list)
    capped: int = 0
    cpu: float = 0.0

    def solve(self, valuer: Valuer, team: int, fast: FastHand, moves: list[int]) -> None:
        """Solve one deal for every candidate (a :class:`DealSearch` way of solving that always
        goes on to the playouts, which are not timed)."""
        solver = Solver(valuer, team, self.cap)
        solver.reset_table(fast)
        start = time.process_time()
        try:
            solver.move_values(fast, moves)
        except OutOfNodes:
            self.capped += 1
        self.cpu += time.process_time() - start
        self.counts.append(min(solver.nodes, self.cap))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="venezuela,mano_a_mano,tres,dominicana")
    parser.add_argument("--hands", type=int, default=6, help="hands per mode")
    parser.add_argument("--min-line", type=int, default=5, help="fewest tiles on the line")
    parser.add_argument("--max-line", type=int, default=13, help="most tiles on the line")
    parser.add_argument("--deals", type=int, default=3, help="deals solved per decision")
    parser.add_argument("--cap", type=int, default=3_000_000, help="most nodes a deal")
    args = parser.parse_args()
    print(f"Python {platform.python_version()}; nodes to value every candidate of a deal, "
          f"lines {args.min_line}-{args.max_line}, {args.deals} deals a decision, "
          f"at most {args.cap:,} nodes a deal")  # fmt: skip
    print(f"{'mode':<12} {'deals':>5} {'median':>8} {'mean':>8} {'p90':>8} {'max':>9} "
          f"{'capped':>6} {'CPU s':>6}")  # fmt: skip
    for preset in args.modes.split(","):
        tally = Tally(args.cap)
        for _name, index, view in mid_hand_views(preset, args.hands, args.min_line, args.max_line):
            codes = [code for code, _ in candidates(view)]
            valuer = valuer_for(view.rules)
            search = DealSearch(view, codes, valuer, random.Random(index), REVIEW)
            solve = partial(tally.solve, valuer, search.team)
            for _ in search.deals(args.deals, solve):
                pass
        counts, capped, cpu = tally.counts, tally.capped, tally.cpu
        if len(counts) < 2:
            print(f"{preset:<12} no decision in that phase")
            continue
        p90 = statistics.quantiles(counts, n=10)[-1]
        print(f"{preset:<12} {len(counts):>5} {statistics.median(counts):>8.0f} "
              f"{statistics.fmean(counts):>8.0f} {p90:>8.0f} {max(counts):>9} {capped:>6} "
              f"{cpu:>6.1f}", flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
