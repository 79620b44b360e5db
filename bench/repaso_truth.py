"""How close the Repaso's expected values come to an exact reference in mid-hand.

The reference of a decision: ``--deals`` deals of the hidden tiles consistent with what the seat
saw, drawn by the sampler and counted alike (no play-model weights, so as near uniform as the
sampler deals), each solved exactly with every hand visible; a move's reference value is its mean
over them (in tantos, net of the rivals', as the Repaso counts; in ``tres`` the solver's value,
both rivals together against the seat, as the Repaso's solved deals count it). Positions: the
decisions of hands played by ``jugador`` bots (as ``bench/repaso_speed.py`` deals them) with
``--min-line`` to ``--max-line`` tiles on the line, where solving every deal is affordable.

For each decision it prints whether the Repaso's best move is the reference's (or worth the same
in it), what the reference says the Repaso's best loses, with the reference's standard error, and
the mean |difference| over the moves. At the end: the share of decisions with the same best move,
with a best move within 2 of the reference's standard errors, and with one that loses at most 1
tanto in it (95% Wilson intervals); the mean |difference| (95% interval), how far each move's cost
is from the reference's, and how many «mistake» labels name a move the reference cannot tell
from its best (within 2 standard errors).

    python bench/repaso_truth.py                       # 2 hands per mode, 100 deals each
    python bench/repaso_truth.py --hands 1 --modes venezuela --deals 60
    python bench/repaso_truth.py --exact-after 99      # the playouts alone, uncorrected

The references are the slow part: ``--references FILE`` keeps them in a JSON file (read when it
exists, the missing ones solved and added), so that variants of the Repaso are compared with
the same reference in runs of their own; ``--skip`` lets two processes share the decisions.
``--against-seed N`` judges a second reference (another seed; ``--against-deals``, another size)
in the Repaso's place: how often two references agree is as much as any method can be seen to
agree with one.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from fichaflow.core.view import SeatView
from fichaflow.review.evaluate import MISTAKE, REVIEW, evaluate
from fichaflow.review.precision import PRECISIONS
from fichaflow.search.decide import DealSearch, candidates
from fichaflow.search.engine import FastHand
from fichaflow.search.solver import Solver
from fichaflow.search.value import valuer_for
from repaso_speed import mid_hand_views  # the bench's hands (this script's folder is on the path)


@dataclass(frozen=True, slots=True)
class Reference:
    """Each candidate's mean exact value over the deals solved, and for each one the standard
    error of its paired difference from the reference's best (0 for the best itself)."""

    means: list[float]
    gap_se: list[float]


def reference(view: SeatView, deals: int, seed: int) -> Reference:
    """Each candidate's mean exact value over ``deals`` consistent deals, counted alike."""
    codes = [code for code, _ in candidates(view)]
    valuer = valuer_for(view.rules)
    search = DealSearch(view, codes, valuer, random.Random(seed), REVIEW)
    solver = Solver(valuer, search.team)

    def solve(fast: FastHand, moves: list[int]) -> list[int]:
        solver.reset_table(fast)
        return solver.move_values(fast, moves)

    rows = [[valuer.tantos(v) for v in deal.values] for deal in search.deals(deals, solve)]
    means = [statistics.fmean(col) for col in zip(*rows, strict=True)]
    best = max(range(len(codes)), key=lambda i: means[i])
    gap_se = []
    for i in range(len(codes)):
        gaps = [r[best] - r[i] for r in rows]
        gap_se.append(statistics.stdev(gaps) / len(rows) ** 0.5 if len(rows) > 1 else 0.0)
    return Reference(means, gap_se)


def kept_reference(
    kept: dict[str, dict[str, list[float]]],
    file: Path | None,
    key: str,
    view: SeatView,
    deals: int,
    index: int,
    seed: int,
) -> Reference:
    """The reference of ``deals`` deals of the decision ``key`` (its move's ``index`` in the
    hand, plus ``seed``, seeds it) from ``kept``, or else solved and kept (in ``file`` too, if
    named)."""
    key = f"{key}, {deals} deals" + (f", seed {seed}" if seed else "")
    if key not in kept:
        kept[key] = asdict(reference(view, deals, index + seed))
        if file is not None:
            file.write_text(json.dumps(kept, indent=1))
    return Reference(**kept[key])


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of a share."""
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_interval(xs: list[float]) -> tuple[float, float]:
    """A 95% interval of a mean (normal approximation)."""
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0
    return m - half, m + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2, help="hands per mode")
    parser.add_argument("--deals", type=int, default=100, help="deals solved for each reference")
    parser.add_argument("--modes", default="venezuela,mano_a_mano,tres")
    parser.add_argument("--precision", default="normal")
    parser.add_argument("--min-line", type=int, default=6, help="fewest tiles on the line")
    parser.add_argument("--max-line", type=int, default=11, help="most tiles on the line")
    parser.add_argument("--exact-after", type=int, help="the precision's, changed (to try it)")
    parser.add_argument("--nodes", type=int, help="the precision's nodes a deal, changed")
    parser.add_argument("--exact-total", type=int, help="the precision's nodes a decision")
    parser.add_argument(
        "--per-mode", type=int, default=10**9, help="at most so many decisions a mode"
    )
    parser.add_argument("--skip", type=int, default=0, help="a mode's first decisions left out")
    parser.add_argument("--references", type=Path, help="a JSON file of references, kept")
    parser.add_argument("--seed", type=int, default=0, help="added to each reference's seed")
    parser.add_argument("--against-deals", type=int, help="the second reference's deals")
    parser.add_argument(
        "--against-seed",
        type=int,
        help="judge a second reference, of this seed, instead of the Repaso: how far two "
        "references of the same size differ (the measure's own noise)",
    )
    args = parser.parse_args()
    kept: dict[str, dict[str, list[float]]] = {}
    against_deals = args.deals if args.against_deals is None else args.against_deals
    if args.references is not None and args.references.exists():
        kept = json.loads(args.references.read_text())
    level = PRECISIONS[args.precision]
    if args.exact_after is not None:
        level = replace(level, exact_after=args.exact_after)
    if args.nodes is not None:
        level = replace(level, nodes=args.nodes)
    if args.exact_total is not None:
        level = replace(level, exact_total=args.exact_total)
    agree: list[bool] = []
    agree_noise: list[bool] = []
    agree_tantos: list[bool] = []
    gaps: list[float] = []
    cost_gaps: list[float] = []
    mistakes = unconfirmed = 0
    solved_share: list[float] = []
    start = time.process_time()
    print(f"Python {platform.python_version()}; {args.precision} (exact_after "
          f"{level.exact_after}, {level.nodes} nodes a deal, {level.exact_total} a decision) "
          f"against {args.deals} deals solved exactly, per decision")  # fmt: skip
    for preset in args.modes.split(","):
        taken = len(agree) + args.per_mode
        decisions = mid_hand_views(preset, args.hands, args.min_line, args.max_line)
        for number, (name, index, view) in enumerate(decisions):
            if len(agree) >= taken:
                break
            if number < args.skip:
                continue
            given = (kept, args.references, f"{preset} {name}", view)
            ref = kept_reference(*given, args.deals, index, args.seed)
            moves = [m for _, m in candidates(view)]
            if args.against_seed is None:
                found = evaluate(view, level)
                solved_share.append(found.exact_samples / found.samples)
                judged = [found.of(m) for m in moves]
                values = [m.points.mean for m in judged]
                chosen = moves.index(found.best.move)
                costs = [m.cost.mean for m in judged]
                mistaken = [m.verdict == MISTAKE for m in judged]
                work = f"{found.exact_samples}/{found.samples} deals solved"
            else:
                values = kept_reference(*given, against_deals, index, args.against_seed).means
                chosen = max(range(len(moves)), key=lambda i: values[i])
                costs = [values[chosen] - v for v in values]
                mistaken = [False] * len(moves)
                work = f"judged: the reference of {against_deals} deals, seed {args.against_seed}"
            means = ref.means
            diffs = [abs(values[i] - means[i]) for i in range(len(moves))]
            best_ref = max(means)
            loss = best_ref - means[chosen]
            same = loss <= 1e-9
            agree.append(same)
            agree_noise.append(loss <= 2 * ref.gap_se[chosen])
            agree_tantos.append(loss <= 1.0)
            gaps.append(statistics.fmean(diffs))
            for i in range(len(moves)):
                ref_cost = means[chosen] - means[i]
                if i != chosen:
                    cost_gaps.append(abs(costs[i] - ref_cost))
                if mistaken[i]:
                    mistakes += 1
                    # within the reference's uncertainty of the best move's value
                    unconfirmed += best_ref - means[i] <= 2 * ref.gap_se[i]
            print(f"{preset} {name}: "
                  f"{'same best' if same else 'other best'} (reference loses "
                  f"{loss:.1f} ± {ref.gap_se[chosen]:.1f}), mean |difference| "
                  f"{gaps[-1]:.1f}, {work}", flush=True)  # fmt: skip
    if not agree:
        print("no decision in that phase")
        return
    n = len(agree)
    low, high = wilson(sum(agree), n)
    low2, high2 = wilson(sum(agree_noise), n)
    low3, high3 = wilson(sum(agree_tantos), n)
    g_low, g_high = mean_interval(gaps)
    solved = ""
    if solved_share:
        solved = f"deals solved {100 * statistics.fmean(solved_share):.0f}% on average; "
    # (one decision of two moves gives a single cost: it is its own 90th percentile)
    p90 = statistics.quantiles(cost_gaps, n=10)[-1] if len(cost_gaps) > 1 else max(cost_gaps)
    print(f"{n} decisions: best move as the reference's in {sum(agree)} ({100 * sum(agree) / n:.0f}"
          f"%, 95% {100 * low:.0f}-{100 * high:.0f}%), within 2 of the reference's standard errors "
          f"in {sum(agree_noise)} ({100 * low2:.0f}-{100 * high2:.0f}%), within 1 tanto of "
          f"it in {sum(agree_tantos)} ({100 * low3:.0f}-{100 * high3:.0f}%); mean |difference| "
          f"{statistics.fmean(gaps):.2f} tantos (95% {g_low:.2f}-{g_high:.2f}, median "
          f"{statistics.median(gaps):.2f}); a move's cost against the reference's: mean "
          f"|difference| {statistics.fmean(cost_gaps):.2f}, 90th percentile "
          f"{p90:.2f}; {mistakes} «mistake» labels, "
          f"{unconfirmed} of them within 2 of the reference's standard errors of its best; "
          f"{solved}"
          f"{time.process_time() - start:.0f} CPU s")  # fmt: skip


if __name__ == "__main__":
    main()
