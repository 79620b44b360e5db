"""How long gallo takes to decide at a fixed amount of work, its clock switched off.

With its clock on, gallo answers in about its budget (150 ms) whatever the search costs; with
``budget_ms=None`` its work limits alone decide, so the CPU time of a decision measures the
search loop itself. Hands are dealt from fixed seeds and played by four ``jugador`` bots; gallo
is asked every decision with a choice, in every mode, timed on the process's CPU clock.

    python bench/gallo_decision_speed.py                  # 4 hands per mode, 3 rounds
    python bench/gallo_decision_speed.py --hands 2 --samples 100
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from fichaflow.bots.gallo import Gallo
from fichaflow.bots.ladder import make_bot
from fichaflow.core.deal import Deal
from fichaflow.core.hand import Hand
from fichaflow.core.record import draw_until_playable
from fichaflow.core.rules import Rules
from fichaflow.core.view import SeatView, hand_view

MODES = ("venezuela", "dominicana", "mano_a_mano", "tres")


def decisions(preset: str, number: int) -> list[SeatView]:
    """Every view of hand ``number`` of the bench for ``preset`` where a seat had a choice."""
    rules = Rules.make(preset)
    deal = Deal.from_seed(rules.seats, f"gallo-bench-{preset}-{number}")
    hand = Hand(list(deal.hands), deal.stock, number % rules.seats)
    bots = [make_bot("jugador", seat + 10 * number) for seat in range(rules.seats)]
    out: list[SeatView] = []
    while True:
        draw_until_playable(hand)
        if hand.ended:
            return out
        view = hand_view(rules, hand, hand.turn, hand_number=2)
        if len(view.legal) > 1:
            out.append(view)
        hand.play(bots[hand.turn].choose(view))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4, help="hands per mode")
    parser.add_argument("--rounds", type=int, default=3, help="times each decision is timed")
    parser.add_argument("--samples", type=int, default=60, help="deals per decision")
    parser.add_argument("--modes", default=",".join(MODES))
    args = parser.parse_args()
    views = [v for p in args.modes.split(",") for n in range(args.hands) for v in decisions(p, n)]
    gallo = Gallo(7, budget_ms=None, samples=args.samples)
    seconds: list[list[float]] = [[] for _ in views]
    for _ in range(args.rounds):
        for i, view in enumerate(views):
            start = time.process_time()
            gallo.choose(view)
            seconds[i].append(time.process_time() - start)
    fastest = [min(s) for s in seconds]  # the least disturbed of each decision's rounds
    print(f"Python {platform.python_version()}, {platform.machine()}; {len(views)} decisions, "
          f"{args.samples} deals each, clock off")  # fmt: skip
    print(f"CPU ms per decision: median {statistics.median(fastest) * 1000:.1f}, "
          f"mean {statistics.mean(fastest) * 1000:.1f}, max {max(fastest) * 1000:.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
