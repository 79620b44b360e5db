"""The whole ladder against itself: every pair of bots in a short duplicate duel, as a table.

Each pair plays the same number of duplicate hands (same seed, so the same deals for every pair)
through the project's duel runner. Slow pairs can be played in separate runs that append to one
JSON-lines file; ``table`` then prints the share of decided hands the row bot won against the
column bot, with its 95% interval, as Markdown.

    python bench/duel_ladder.py play --hands 1000 --skip gallo,omnisciente --out ladder.jsonl
    python bench/duel_ladder.py play --hands 100 --pair gallo,jugador --out ladder.jsonl
    python bench/duel_ladder.py table ladder.jsonl
"""

from __future__ import annotations

import argparse
import json
import platform
import time
from itertools import combinations
from typing import Any

from fichaflow.bots.ladder import BOTS
from fichaflow.core.rules import Rules
from fichaflow.match.duplicate import DuelSpec, run_duel


def parse_options(items: list[str]) -> dict[str, dict[str, Any]]:
    """``bot.option=value`` pairs (numbers read as numbers, ``none`` as None)."""
    out: dict[str, dict[str, Any]] = {}
    for item in items:
        key, _, text = item.partition("=")
        bot, _, option = key.partition(".")
        value: Any = None if text.lower() == "none" else text
        if value is not None:
            try:
                value = int(text)
            except ValueError:
                try:
                    value = float(text)
                except ValueError:
                    value = text
        out.setdefault(bot, {})[option] = value
    return out


def play(args: argparse.Namespace) -> None:
    names = [n for n in BOTS if not args.skip or n not in args.skip.split(",")]
    options = parse_options(args.option)
    rules = Rules.make(args.rules)
    pairs = list(combinations(names, 2))
    if args.only:
        pairs = [p for p in pairs if args.only in p]
    if args.pair:
        pairs = [p for p in pairs if ",".join(p) in args.pair or ",".join(p[::-1]) in args.pair]
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    with open(args.out, "a", encoding="utf-8") as out:
        for a, b in pairs:
            spec = DuelSpec(a, b, rules, args.seed, options.get(a, {}), options.get(b, {}))
            started = time.time()
            result = run_duel(spec, args.hands, workers=args.workers)
            row = result.to_json()
            row["options"] = [options.get(a, {}), options.get(b, {})]
            row["seconds"] = round(time.time() - started, 1)
            out.write(json.dumps(row) + "\n")
            out.flush()
            share = row["hands"]["share"]
            print(f"{a} vs {b}: {a} wins {share['estimate']:.3f} ({row['seconds']} s)")


def table(args: argparse.Namespace) -> None:
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    order: list[str] = []
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                a, b = row["bots"]
                rows[(a, b)] = row
                for name in (a, b):
                    if name not in order:
                        order.append(name)
    order.sort(key=lambda n: list(BOTS).index(n) if n in BOTS else len(BOTS))
    print("| row bot wins (share of decided hands, 95% CI) | " + " | ".join(order) + " |")
    print("|---" * (len(order) + 1) + "|")
    for a in order:
        cells = []
        for b in order:
            if a == b:
                cells.append("—")
            elif (a, b) in rows:
                s = rows[(a, b)]["hands"]["share"]
                cells.append(f"{s['estimate']:.2f} ({s['low']:.2f}–{s['high']:.2f})")
            elif (b, a) in rows:
                s = rows[(b, a)]["hands"]["share"]
                cells.append(f"{1 - s['estimate']:.2f} ({1 - s['high']:.2f}–{1 - s['low']:.2f})")
            else:
                cells.append("")
        print(f"| **{a}** | " + " | ".join(cells) + " |")
    print()
    for (a, b), row in rows.items():
        h = row["hands"]
        t = row["decision_time"]
        print(
            f"- {a} vs {b}: {h['played']} hands, won {h['won'][0]}–{h['won'][1]}, "
            f"{h['undecided']} undecided; options {row.get('options')}; median decision "
            f"{t[0]['median_ms']:.2f} / {t[1]['median_ms']:.2f} ms; {row.get('seconds')} s"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--hands", type=int, default=400)
    p.add_argument("--rules", default="venezuela")
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--only", help="play only the pairs with this bot")
    p.add_argument("--skip", help="bots to leave out, comma separated")
    p.add_argument("--pair", action="append", default=[], help="play only this pair: a,b")
    p.add_argument("--option", action="append", default=[], help="bot.option=value")
    p.add_argument("--out", required=True)
    p.set_defaults(run=play)
    t = sub.add_parser("table")
    t.add_argument("files", nargs="+")
    t.set_defaults(run=table)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
