"""gallo and omnisciente each against jugador, in duplicate hands on the same deals.

Uses the project's duel runner (every deal played with the sides swapped, leads rotating), so
the two duels of one seed play exactly the same deals: the gap between gallo's and omnisciente's
results is what seeing the hidden hands is worth. gallo plays with its default clock (150 ms per
decision) unless told otherwise; the decision times are the runner's, per decision.

    python bench/gallo_vs_jugador.py --hands 400 --rules venezuela
    python bench/gallo_vs_jugador.py --hands 200 --bots omnisciente
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from typing import Any

from fichaflow.core.rules import Rules
from fichaflow.match.duplicate import DuelSpec, run_duel


def duel(bot: str, rules: Rules, hands: int, seed: int, workers: int, options: dict[str, Any]
         ) -> dict[str, Any]:  # fmt: skip
    started = time.time()
    result = run_duel(DuelSpec(bot, "jugador", rules, seed, options_a=options), hands, 0, workers)
    out = result.to_json()
    out["wall_seconds"] = round(time.time() - started, 1)
    out["options"] = options
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--rules", default="venezuela")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=150.0)
    parser.add_argument("--bots", nargs="+", default=["gallo", "omnisciente"])
    args = parser.parse_args()
    rules = Rules.make(args.rules)
    report = {"python": platform.python_version(), "rules": args.rules, "duels": []}
    for bot in args.bots:
        options: dict[str, Any] = {"budget_ms": args.budget_ms} if bot == "gallo" else {}
        report["duels"].append(duel(bot, rules, args.hands, args.seed, args.workers, options))
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
