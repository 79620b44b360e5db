"""Search engine speed against the ``dominoes`` package (PyPI), side by side in one run.

Both play whole 4-player partnership hands by uniformly random legal moves, the cochina led,
dealing included: the package through ``Game.new`` and its ``random`` player, ours through the
search engine's own deal (``search.dealer.random_deal``) and a playout. Rounds alternate the two
engines so that the machine's noise falls on both, and each figure is timed on the process's CPU
clock, not the wall clock; the script prints each round and the medians and their ratio. It also
gives our playouts without the dealing, and the rules engine, for reference.

    pip install -e '.[bench]'
    python bench/search_speed.py --rounds 7 --seconds 2
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from collections.abc import Callable

import dominoes

from fichaflow.core.rules import Rules
from fichaflow.core.tiles import COCHINA
from fichaflow.search.dealer import holder, random_deal
from fichaflow.search.engine import FastHand
from fichaflow.search.speed import deals, rules_rate, search_rate


def rate(play_one: Callable[[], None], seconds: float) -> float:
    played = 0
    start = time.process_time()
    while True:
        for _ in range(20):
            play_one()
        played += 20
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return played / elapsed


def dominoes_hand() -> None:
    """One hand of the package: deal, lead the cochina, random moves to the end."""
    game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
    while game.result is None:
        dominoes.players.random(game)
        game.make_move(*game.valid_moves[0])


def ours(rand: Callable[[], float]) -> Callable[[], None]:
    """One hand of ours: the search engine's deal, lead the cochina, a random playout."""
    fast = FastHand([0, 0, 0, 0])

    def hand() -> None:
        hands, stock = random_deal(rand, 4)
        fast.reset(hands, stock, holder(hands, COCHINA), COCHINA)
        fast.playout(rand)

    return hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    random.seed(1)  # the package's players and deals use the global generator
    rules = Rules.make("internacional")
    pool = deals(rules)
    ours_hand = ours(random.Random(1).random)
    rows = []
    for r in range(args.rounds):
        row = {
            "dominoes": rate(dominoes_hand, args.seconds),
            "search": rate(ours_hand, args.seconds),
            "search_playout_only": search_rate(rules, pool, args.seconds, seed=r),
            "rules_engine": rules_rate(rules, pool, args.seconds, seed=r),
        }
        row["ratio"] = row["search"] / row["dominoes"]
        row["ratio_playout_only"] = row["search_playout_only"] / row["dominoes"]
        rows.append(row)
        if not args.json:
            print(f"round {r + 1}: " + ", ".join(f"{k} {v:,.1f}" for k, v in row.items()))
    summary = {k: statistics.median(row[k] for row in rows) for k in rows[0]}
    out = {
        "python": platform.python_version(),
        "dominoes": dominoes.__name__,
        "rounds": args.rounds,
        "seconds": args.seconds,
        "median": {k: round(v, 2) for k, v in summary.items()},
        "min_ratio": round(min(row["ratio"] for row in rows), 2),
        "min_ratio_playout_only": round(min(row["ratio_playout_only"] for row in rows), 2),
    }
    print(json.dumps(out, indent=None if args.json else 1))


if __name__ == "__main__":
    main()
