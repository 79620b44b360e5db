"""The jugador target: it must win at least 60% of duplicate hands against tirapuntos.

Plays ``--hands`` duplicate hands (4,000 by default: 2,000 deals, each played with the sides
swapped) under preset venezuela through the project's duel runner, and prints the share of
decided hands jugador won, its 95% interval, the share of all hands and the decision times, with
the machine it ran on. The same seed always plays the same deals; ``fichaflow duel jugador
tirapuntos --hands 4000 --seed 2026`` gives the same counts.

    python bench/jugador_vs_tirapuntos.py --hands 4000 --seed 2026
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import time

from fichaflow.core.rules import Rules
from fichaflow.match.duplicate import DuelSpec, run_duel

FLOOR = 0.60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rules", default="venezuela")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    spec = DuelSpec("jugador", "tirapuntos", Rules.make(args.rules), args.seed)
    started = time.time()
    result = run_duel(spec, args.hands, workers=args.workers)
    hands = result.hands
    assert hands is not None and hands.share is not None and hands.rate is not None
    share, rate = hands.share, hands.rate
    print(
        f"{datetime.date.today()} · {platform.machine()} · {os.cpu_count()} cores · Python "
        f"{platform.python_version()} · {args.workers} worker(s) · {time.time() - started:.0f} s"
    )
    print(f"{hands.played} hands ({hands.groups} deals), preset {args.rules}, seed {args.seed}")
    print(f"won: jugador {hands.won[0]}, tirapuntos {hands.won[1]}, nobody {hands.undecided}")
    print(
        f"jugador's share of decided hands: {share.estimate:.3f} "
        f"(95% CI {share.low:.3f}-{share.high:.3f}); of all hands: {rate.estimate:.3f} "
        f"(95% CI {rate.low:.3f}-{rate.high:.3f})"
    )
    verdict = "meets" if share.low >= FLOOR else "does not meet"
    print(f"target: at least {FLOOR:.0%} of decided hands; the whole interval {verdict} it")
    for name, t in zip(("jugador", "tirapuntos"), result.timings, strict=True):
        print(
            f"{name}: median {t.median_ms:.3f} ms, 99th percentile {t.p99_ms:.3f} ms "
            f"({t.decisions} decisions)"
        )


if __name__ == "__main__":
    main()
