"""gallo and omnisciente each against jugador, in duplicate hands on the same deals.

Uses the project's duel runner (every deal played with the sides swapped, leads rotating), so
duels with the same seed play exactly the same deals: the gap between gallo's and omnisciente's
results is what seeing the hidden hands is worth. gallo plays with its default clock (150 ms per
decision) unless told otherwise; decision times are the runner's, per decision.

Long measurements run in chunks of deal groups appended to a JSON-lines file, then summed up:

    python bench/gallo_vs_jugador.py play --bot gallo --groups 0 100 --out g.jsonl
    python bench/gallo_vs_jugador.py play --bot gallo --groups 100 200 --out g.jsonl
    python bench/gallo_vs_jugador.py summary g.jsonl
    python bench/gallo_vs_jugador.py paired g.jsonl other.jsonl
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections import defaultdict
from typing import Any

from fichaflow.core.rules import Rules
from fichaflow.match.duplicate import DuelSpec, play_groups
from fichaflow.match.stats import mean_interval, paired_gains, ratio_interval
from gallo_vs_gallo import outcomes_by_deal


def play(args: argparse.Namespace) -> None:
    rules = Rules.make(args.rules)
    options: dict[str, Any] = {"budget_ms": args.budget_ms} if args.bot == "gallo" else {}
    options.update(json.loads(args.options))
    spec = DuelSpec(args.bot, "jugador", rules, args.seed, options_a=options)
    tasks = [("hand", g) for g in range(args.groups[0], args.groups[1])]
    started = time.time()
    with open(args.out, "a", encoding="utf-8") as out:
        for games in play_groups(spec, tasks, args.workers):
            for g in games:
                row = {
                    "bot": args.bot,
                    "rules": args.rules,
                    "seed": args.seed,
                    "options": options,
                    "group": g.group,
                    "seating": list(g.seating),
                    "winner": g.winner,
                    "points": list(g.points),
                    "times": [[round(t, 5) for t in side] for side in g.times],
                }
                out.write(json.dumps(row) + "\n")
            out.flush()  # a chunk stopped early keeps its finished groups
    print(f"{args.bot}: groups {args.groups[0]}..{args.groups[1]} in {time.time() - started:.0f} s")


def read_groups(paths: list[str]) -> dict[str, dict[int, list[dict[str, Any]]]]:
    """The rows of ``play``'s files by bot and deal group."""
    by_bot: dict[str, dict[int, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    row = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a stopped run
                by_bot[row["bot"]][row["group"]].append(row)
    return by_bot


def paired(args: argparse.Namespace) -> None:
    """Two runs of the same groups (the bot with other options), group by group: what the first
    gains over the second, with intervals over the groups both played whole."""
    first, second = (outcomes_by_deal(path) for path in (args.first, args.second))
    print(json.dumps(paired_gains(first, second).to_json(), indent=1))


def summary(args: argparse.Namespace) -> None:
    by_bot = read_groups(args.files)
    report: dict[str, Any] = {"python": platform.python_version(), "duels": {}}
    for bot, groups in by_bot.items():
        if args.label:
            bot = f"{bot} {args.label}"
        size = max(len(games) for games in groups.values())
        ordered = [groups[k] for k in sorted(groups) if len(groups[k]) == size]  # whole groups
        won = [sum(g["winner"] == 0 for g in games) for games in ordered]
        lost = [sum(g["winner"] == 1 for g in games) for games in ordered]
        decided = [w + lo for w, lo in zip(won, lost, strict=True)]
        diff = [
            sum(g["points"][0] - g["points"][1] for g in games) / len(games) for games in ordered
        ]
        mine = sorted(t for games in ordered for g in games for t in g["times"][0])
        theirs = sorted(t for games in ordered for g in games for t in g["times"][1])
        share = ratio_interval(won, decided)
        interval = mean_interval(diff)
        report["duels"][bot] = {
            "against": "jugador",
            "rules": ordered[0][0]["rules"],
            "seed": ordered[0][0]["seed"],
            "options": ordered[0][0]["options"],
            "groups": len(ordered),
            "hands": sum(len(games) for games in ordered),
            "won": [sum(won), sum(lost)],
            "undecided": sum(len(games) for games in ordered) - sum(decided),
            "share_of_decided": None if share is None else share.to_json(),
            "points_difference_per_hand": None if interval is None else interval.to_json(),
            "decision_ms": {bot: _times(mine), "jugador": _times(theirs)},
        }
    print(json.dumps(report, indent=1))


def _times(ordered: list[float]) -> dict[str, Any]:
    if not ordered:
        return {"decisions": 0}
    return {
        "decisions": len(ordered),
        "median": round(1000 * statistics.median(ordered), 1),
        "p99": round(1000 * ordered[round(0.99 * (len(ordered) - 1))], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--bot", default="gallo")
    p.add_argument("--rules", default="venezuela")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--groups", type=int, nargs=2, default=[0, 50], metavar=("FROM", "TO"))
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--budget-ms", type=float, default=150.0)
    p.add_argument("--options", default="{}", help='more bot options as JSON: {"playouts": 2}')
    p.add_argument("--out", required=True)
    s = sub.add_parser("summary")
    s.add_argument("files", nargs="+")
    s.add_argument("--label", default="", help="a name for this run in the report")
    c = sub.add_parser("paired", help="what the first run gains over the second, group by group")
    c.add_argument("first")
    c.add_argument("second")
    args = parser.parse_args()
    {"play": play, "summary": summary, "paired": paired}[args.command](args)


if __name__ == "__main__":
    main()
