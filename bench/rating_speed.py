"""How long one rated partida's update takes (issue target: under 5 ms), per mode.

python bench/rating_speed.py --repeat 2000
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from fichaflow.core.rules import Mode
from fichaflow.ratings import NEW_PLAYER, Rating, Side, rate_partida
from fichaflow.ratings.model import SHAPES, mu_of


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    bot = Rating(mu_of(1400), 1.0, 500)
    print(f"Python {platform.python_version()}, {args.repeat} updates per mode")
    print("| mode | median | p99 |")
    print("|---|---|---|")
    for mode in Mode:
        sides = []
        for index, size in enumerate(SHAPES[mode]):
            fixed = (index == 1,) * size
            sides.append(Side((bot if index == 1 else NEW_PLAYER,) * size, fixed))
        places = list(range(len(sides)))
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            rate_partida(mode, sides, places)
            times.append(time.perf_counter() - started)
        times.sort()
        median = statistics.median(times) * 1e6
        p99 = times[int(0.99 * (len(times) - 1))] * 1e6
        print(f"| {mode} | {median:.0f} µs | {p99:.0f} µs |")


if __name__ == "__main__":
    main()
