"""How long a big torneo takes to pair and to count: Swiss pairings for 1,000 pairs, and the
standings of 1,000 pairs after 9 rounds recomputed from the results log.

A Swiss of ``--pairs`` pairs is played ``--played`` rounds with seeded random results (partidas
to 100: the winner 100–139, the loser 0–99; a few forfeits). Then, ``--rounds`` times each, side by
side: the next round's pairing (what ``fichaflow torneo pair`` computes: the standings of the
moment, then the search) and the standings of the whole torneo once that round is played too.
CPU time of the process (the machine is shared); medians, with the range.

    python bench/torneo_speed.py --pairs 1000 --played 8 --rounds 7

Targets (issue #17): pairings under 1 s, standings under 200 ms.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from datetime import UTC, datetime

from fichaflow.torneo import model
from fichaflow.torneo.pairing import meetings, pair_round
from fichaflow.torneo.standings import standings

AT = "2026-12-05T10:00:00Z"


def build(pairs: int, played: int, seed: int) -> model.Torneo:
    spec = {
        "name": "Benchmark",
        "rules": "venezuela",
        "rounds": played + 1,
        "pairing": "swiss",
        "entrants": [f"Pareja {i}" for i in range(1, pairs + 1)],
    }
    torneo = model.create(spec)
    rng = random.Random(seed)
    for _ in range(played):
        made = torneo.next_round()
        for table in made.tables:
            if rng.random() < 0.02:
                result = model.Result(forfeit=rng.choice("ab"))
            else:
                win, lose = 100 + rng.randrange(40), rng.randrange(100)
                result = model.Result(score=(win, lose) if rng.random() < 0.5 else (lose, win))
            torneo.enter(made.number, table.number, result, "bench", AT)
    return torneo


def cpu(action: object) -> float:
    start = time.process_time()
    action()  # type: ignore[operator]
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--played", type=int, default=8, help="rounds played before timing")
    parser.add_argument("--rounds", type=int, default=7, help="timed repetitions")
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()

    torneo = build(args.pairs, args.played, args.seed)
    number = args.played + 1
    pairing_times = [
        cpu(lambda: pair_round(torneo, number, len(torneo.log))) for _ in range(args.rounds)
    ]
    made = torneo.next_round()
    rng = random.Random(args.seed + 1)
    for table in made.tables:
        score = (100 + rng.randrange(40), rng.randrange(100))
        torneo.enter(made.number, table.number, model.Result(score=score), "bench", AT)
    repeats = max(meetings(torneo.rounds).values())
    standing_times = [cpu(lambda: standings(torneo)) for _ in range(args.rounds)]

    def line(label: str, times: list[float], target: float) -> str:
        median = statistics.median(times)
        verdict = "met" if median < target else "NOT met"
        return (
            f"{label}: median {median * 1000:.1f} ms (range {min(times) * 1000:.1f}–"
            f"{max(times) * 1000:.1f} ms over {len(times)} runs); target {target * 1000:.0f} ms: "
            f"{verdict}"
        )

    print(
        f"{datetime.now(UTC):%Y-%m-%d}, {platform.python_implementation()} "
        f"{platform.python_version()}, {platform.machine()}"
    )
    print(f"{args.pairs} pairs, Swiss, pairing round {number} after {args.played} played rounds")
    print(line("pairings", pairing_times, 1.0))
    print(line(f"standings after {number} rounds", standing_times, 0.2))
    print(f"most times two pairs met: {repeats} (1: no rematch)")


if __name__ == "__main__":
    main()
