"""Mining problemas: puzzles per CPU-minute, the share of looked-at positions each check rejects,
and the time to re-solve (check) the shipped set and to judge a move.

nice python bench/problemas_mine.py --seeds 1 2 3 --count 200
nice python bench/problemas_mine.py --kind seat --seeds 2 3 --count 40
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections import Counter

from fichaflow.problemas import judge, load_set
from fichaflow.problemas.mine import CHECKS, Tally, check, mine


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--kind", choices=("face_up", "seat"), default="face_up")
    parser.add_argument("--check-all", action="store_true", help="re-solve the whole shipped set")
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, {args.count} {args.kind} puzzles per seed")
    print("| seed | puzzles | positions | CPU s | puzzles per CPU-minute |")
    print("|---|---|---|---|---|")
    total = Tally()
    rates = []
    for seed in args.seeds:
        tally = Tally()
        started = time.process_time()
        how: Counter[str] = Counter()
        for puzzle in mine(seed, args.count, tally, kind=args.kind):
            how[str(puzzle.decided.get("how", "face_up"))] += 1
        cpu = time.process_time() - started
        rates.append(tally.made / cpu * 60)
        print(f"| {seed} | {tally.made} | {tally.positions} | {cpu:.1f} | {rates[-1]:.0f} |")
        print(f"  decided: {dict(how)}")
        total.positions += tally.positions
        total.made += tally.made
        total.rejected += tally.rejected
    print(f"median: {statistics.median(rates):.0f} puzzles per CPU-minute")
    print("| check | rejected | share of positions |")
    print("|---|---|---|")
    for name in CHECKS:
        n = total.rejected[name]
        print(f"| {name} | {n} | {n / total.positions:.1%} |")
    print(f"| (kept) | {total.made} | {total.made / total.positions:.1%} |")
    puzzles = load_set()
    times = []
    for puzzle in puzzles[:500]:
        wrong = min(puzzle.values, key=lambda m: puzzle.values[m])
        started = time.perf_counter()
        judge(puzzle, [], wrong)
        times.append(time.perf_counter() - started)
    print(f"judge: median {statistics.median(times) * 1e6:.1f} µs over 500 puzzles")
    if args.check_all:
        for kind in ("face_up", "seat"):
            some = [p for p in puzzles if p.kind == kind]
            started = time.process_time()
            failed = Counter(r for p in some if (r := check(p)))
            cpu = time.process_time() - started
            print(
                f"check of the {len(some)} shipped {kind} puzzles: {cpu:.1f} CPU s,"
                f" failed {dict(failed)}"
            )


if __name__ == "__main__":
    main()
