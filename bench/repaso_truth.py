"""How close the Repaso's expected values come to an exact reference in mid-hand.

Before ``exact_after`` tiles are on the line (12 at ``normal``) the Repaso finishes each sampled
deal with playouts (gallo's policy), not exactly. The reference of a decision here: ``--deals``
deals of the hidden tiles consistent with what the seat saw, drawn by the sampler and counted
alike (no play-model weights, so as near uniform as the sampler deals), each solved exactly with
every hand visible; a move's reference value is its mean over them (in tantos, net of the
rivals', as the Repaso counts). Positions: the decisions of hands played by ``jugador`` bots
(as ``bench/repaso_speed.py`` deals them) with between ``--min-line`` and ``exact_after - 1`` tiles
on the line, where solving every deal is affordable. For each it prints the Repaso's best move
against the reference's, and the mean |difference| over the moves; then the share of positions
where the Repaso's best move is the reference's (or worth the same in it) and the mean difference.

    python bench/repaso_truth.py                       # 2 hands per mode, 30 deals each
    python bench/repaso_truth.py --hands 1 --modes venezuela --deals 60
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from dataclasses import replace

from fichaflow.core.view import SeatView
from fichaflow.review.evaluate import GALLO, evaluate, valuer_for
from fichaflow.review.hand import decision_points, fresh, view_at
from fichaflow.review.precision import PRECISIONS
from fichaflow.search.decide import DealSearch, candidates
from fichaflow.search.engine import FastHand
from fichaflow.search.solver import Solver
from repaso_speed import play  # the bench's hands (this script's folder is on the path)


def reference(view: SeatView, deals: int, seed: int) -> tuple[list[int], list[float], float]:
    """Each candidate's mean exact value over ``deals`` consistent deals, and the standard error
    of the best one's mean."""
    rules = view.rules
    codes = [code for code, _ in candidates(view)]
    valuer = valuer_for(rules)
    search = DealSearch(view, codes, valuer, random.Random(seed), replace(GALLO, belief=0.0))
    solver = Solver(valuer, search.team)

    def solve(fast: FastHand, moves: list[int]) -> list[int]:
        solver.reset_table(fast)
        return solver.move_values(fast, moves)

    scale = 1.0 / (rules.teams - 1)
    rows = [[v * scale for v in deal.values] for deal in search.deals(deals, solve)]
    means = [statistics.fmean(col) for col in zip(*rows, strict=True)]
    best = max(range(len(codes)), key=lambda i: means[i])
    se = statistics.stdev(r[best] for r in rows) / len(rows) ** 0.5 if len(rows) > 1 else 0.0
    return codes, means, se


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2, help="hands per mode")
    parser.add_argument("--deals", type=int, default=30, help="deals solved for each reference")
    parser.add_argument("--modes", default="venezuela,tres")
    parser.add_argument("--precision", default="normal")
    parser.add_argument("--min-line", type=int, default=7, help="fewest tiles on the line")
    parser.add_argument("--exact-after", type=int, help="the precision's, changed (to try it)")
    parser.add_argument("--nodes", type=int, help="the precision's nodes a deal, changed")
    args = parser.parse_args()
    level = PRECISIONS[args.precision]
    phase_end = level.exact_after  # the phase judged: before the precision solves deals
    if args.exact_after is not None:
        level = replace(level, exact_after=args.exact_after)
    if args.nodes is not None:
        level = replace(level, nodes=args.nodes)
    agree = []
    gaps = []
    start = time.process_time()
    print(f"Python {platform.python_version()}; {args.precision} against {args.deals} deals "
          "solved exactly, per decision")  # fmt: skip
    for preset in args.modes.split(","):
        for number in range(args.hands):
            subject = play(preset, number)
            for seat in range(subject.rules.seats):
                points = set(decision_points(subject, seat))
                hand = fresh(subject)
                for index, turn in enumerate(subject.hand.history):
                    line = hand.line_mask.bit_count()
                    if index in points and args.min_line <= line < phase_end:
                        view = view_at(subject, hand, seat)
                        _, means, se = reference(view, args.deals, index)
                        found = evaluate(view, level)
                        mine = {m.move: m.points.mean for m in found.moves}
                        moves = [m for _, m in candidates(view)]
                        diffs = [abs(mine[m] - means[i]) for i, m in enumerate(moves)]
                        best_ref = max(means)
                        chosen = moves.index(found.best.move)
                        same = means[chosen] >= best_ref - 1e-9
                        agree.append(same)
                        gaps.append(statistics.fmean(diffs))
                        print(f"{preset} hand {number} seat {seat} move {index} line {line}: "
                              f"{'same best' if same else 'other best'} (reference loses "
                              f"{best_ref - means[chosen]:.1f} ± {se:.1f}), mean |difference| "
                              f"{gaps[-1]:.1f}", flush=True)  # fmt: skip
                    hand.push(turn.move)
    if not agree:
        print("no decision in that phase")
        return
    share = 100 * sum(agree) / len(agree)
    print(f"{len(agree)} decisions: best move as the reference's in {sum(agree)} ({share:.0f}%), "
          f"mean |difference| {statistics.fmean(gaps):.2f} tantos (median "
          f"{statistics.median(gaps):.2f}); {time.process_time() - start:.0f} CPU s")  # fmt: skip


if __name__ == "__main__":
    main()
