"""How long the Repaso takes to review a whole hand for one seat, at each precision.

Hands are dealt from fixed seeds and played by four ``jugador`` bots (a partida's later hand, so
the leader chooses the salida: the costliest decision to review). Every seat of every hand is
reviewed at each precision, the precisions side by side on the same hands and in turns (fast,
normal, deep, then the next hand), timed on the process's CPU clock, one process, so one core.

    python bench/repaso_speed.py                 # 6 hands per mode, fast and normal
    python bench/repaso_speed.py --hands 2 --precisions fast,normal,deep
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections import defaultdict
from collections.abc import Iterator

from fichaflow.bots.ladder import make_bot
from fichaflow.core.deal import Deal
from fichaflow.core.hand import Hand
from fichaflow.core.record import draw_until_playable
from fichaflow.core.rules import Rules
from fichaflow.core.view import SeatView, hand_view
from fichaflow.review.hand import HandToReview, decision_points, fresh, review_hand, view_at
from fichaflow.review.precision import PRECISIONS

MODES = ("venezuela", "dominicana", "mano_a_mano", "tres")


def play(preset: str, number: int) -> HandToReview:
    """Hand ``number`` of the bench for ``preset``, played by jugador bots."""
    rules = Rules.make(preset)
    deal = Deal.from_seed(rules.seats, f"repaso-bench-{preset}-{number}")
    hand = Hand(list(deal.hands), deal.stock, number % rules.seats)
    bots = [make_bot("jugador", seat + 10 * number) for seat in range(rules.seats)]
    while True:
        draw_until_playable(hand)
        if hand.ended:
            break
        hand.play(bots[hand.turn].choose(hand_view(rules, hand, hand.turn, hand_number=2)))
    return HandToReview(rules, deal, hand, 2, (0,) * rules.teams)


def mid_hand_views(
    preset: str, hands: int, min_line: int, max_line: int
) -> Iterator[tuple[str, int, SeatView]]:
    """The decisions of the bench's first ``hands`` hands for ``preset`` with ``min_line`` to
    ``max_line`` tiles on the line, in order: a name for each («hand 4 seat 1 move 10 line 7»),
    its move's index in the hand's history, and the deciding seat's view."""
    for number in range(hands):
        subject = play(preset, number)
        for seat in range(subject.rules.seats):
            points = set(decision_points(subject, seat))
            hand = fresh(subject)
            for index, turn in enumerate(subject.hand.history):
                line = hand.line_mask.bit_count()
                if index in points and min_line <= line <= max_line:
                    name = f"hand {number} seat {seat} move {index} line {line}"
                    yield name, index, view_at(subject, hand, seat)
                hand.push(turn.move)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=6, help="hands per mode")
    parser.add_argument("--precisions", default="fast,normal")
    parser.add_argument("--modes", default=",".join(MODES))
    args = parser.parse_args()
    levels = [PRECISIONS[p] for p in args.precisions.split(",")]
    seconds: dict[tuple[str, str], list[float]] = defaultdict(list)
    decisions: dict[str, list[int]] = defaultdict(list)
    best: dict[str, list[list[int]]] = defaultdict(list)  # per level: each decision's best tile
    first_exact: dict[str, list[bool]] = defaultdict(list)  # per level: hindsight at the first
    for preset in args.modes.split(","):
        for number in range(args.hands):
            subject = play(preset, number)
            for seat in range(subject.rules.seats):
                for level in levels:
                    start = time.process_time()
                    review = review_hand(subject, seat, level)
                    seconds[(preset, level.name)].append(time.process_time() - start)
                    best[level.name].append(
                        [d.evaluation.best.move.tile * 2 + int(d.evaluation.best.move.end or 0)
                         for d in review.decisions]
                    )  # fmt: skip
                    if level is levels[0]:
                        decisions[preset].append(len(review.decisions))
                    if review.decisions:
                        solved = review.decisions[0].evaluation.hindsight_solved
                        first_exact[level.name].append(solved)
    print(f"Python {platform.python_version()}, {platform.machine()}; CPU seconds per review of "
          "a whole hand for one seat")  # fmt: skip
    head = f"{'mode':<12} {'reviews':>7} {'decisions':>9}"
    for level in levels:
        head += f" {level.name + ' median':>14} {level.name + ' max':>11}"
    print(head)
    for preset in args.modes.split(","):
        runs = seconds[(preset, levels[0].name)]
        row = f"{preset:<12} {len(runs):>7} {statistics.mean(decisions[preset]):>9.1f}"
        for level in levels:
            times = seconds[(preset, level.name)]
            row += f" {statistics.median(times):>14.2f} {max(times):>11.2f}"
        print(row)
    base = levels[0].name
    for level in levels[1:]:
        ratios = [
            b / a
            for preset in args.modes.split(",")
            for a, b in zip(seconds[(preset, base)], seconds[(preset, level.name)], strict=True)
        ]
        print(f"{level.name} / {base}: median ratio {statistics.median(ratios):.1f}×")
    for level in levels:
        found = first_exact[level.name]
        print(f"{level.name}: a hindsight value for the first decision in {sum(found)} of "
              f"{len(found)} reviews")  # fmt: skip
    deepest = levels[-1].name
    for level in levels[:-1]:
        pairs = [
            (a, b)
            for mine, theirs in zip(best[level.name], best[deepest], strict=True)
            for a, b in zip(mine, theirs, strict=True)
        ]
        same = sum(1 for a, b in pairs if a == b)
        print(f"{level.name} picks {deepest}'s best move in {same} of {len(pairs)} decisions")


if __name__ == "__main__":
    main()
