"""gallo against a baseline gallo kept at a git tag, in duplicate hands.

The new gallo (this checkout's) plays in this process; the baseline is the tag's own source, run
as an outside engine: ``git archive`` of the tag's ``src/`` into a temporary folder, then
``python -m fichaflow engine --bot gallo`` from there (``PYTHONPATH`` puts the tag's package
first; the script checks that the engine imports it from there) and spoken to over the
documented engine protocol (``docs/engine-protocol.md``), one JSON request per decision. So the
baseline is exactly the tagged code, whatever this checkout has changed, and needs nothing but
the engine protocol. With the **work budget** (the default) neither has a clock, so the same
seed gives the same duel on any machine and whatever its load; each gallo plays at its own
engine's default (``--nodes``: this checkout's, ``--baseline-nodes``: the tag's, 10,000; both
``--samples``); with ``--clock`` both stop on the same clock (``--budget-ms``, 150 by default,
gallo's own), which on a loaded machine measures the load as much as the play.

The duel runner (``fichaflow.match.duplicate``) deals and seats: each deal is played once per
seating (twice in parejas and mano a mano, six times in tres), leads rotating, and every
interval counts a deal's games as one unit. The new gallo is bot A (share and points are its),
with the runner's per-seat seeds; the baseline engine is one session for the whole duel (its
seed, 0, with the seat and the view in every decision's seed), so its play too is a function of
the views alone. Decision times are wall time per decision, the baseline's including the
protocol's round trip.

``--options`` passes more options to the new gallo only (``'{"correct": false}'`` switches off
a change of its search). ``check`` asks every decision of a few hands of both the new gallo and
an engine of this very commit, which must agree: the harness's own test.

Long measurements run in chunks of deal groups appended to a JSON-lines file, then summed up:

    python bench/gallo_vs_gallo.py play --mode venezuela --deals 0 40 --out gg.jsonl
    python bench/gallo_vs_gallo.py play --mode venezuela --deals 40 80 --out gg.jsonl
    python bench/gallo_vs_gallo.py summary gg.jsonl
    python bench/gallo_vs_gallo.py play ... --options '{"correct": false}' --out off.jsonl
    python bench/gallo_vs_gallo.py paired gg.jsonl off.jsonl
    python bench/gallo_vs_gallo.py check --mode mano_a_mano --hands 6
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fichaflow.bots.base import Bot
from fichaflow.bots.ladder import make_bot
from fichaflow.cli.engine import DEFAULT_NODES
from fichaflow.core.deal import Deal
from fichaflow.core.hand import Move, read_move
from fichaflow.core.rules import Rules
from fichaflow.core.view import SeatView
from fichaflow.match.duplicate import DuelSpec, Game, play_groups, tally
from fichaflow.match.play import play_hand
from fichaflow.match.stats import Outcome, paired_gains, timing

BASELINE = "050f5b0e693467c782eb51719e9f92a8df62857f"
"""The baseline gallo's commit, tagged ``gallo-baseline-2026-12-02``: named by its hash, which
every clone of main has, with or without the tag."""
BASELINE_NODES = 10_000
"""The baseline engine's own default work budget in solver nodes (``--nodes`` at the tag): each
gallo plays at its own default budget unless told otherwise."""
ROOT = Path(__file__).resolve().parent.parent


class Engine:
    """A ``fichaflow engine`` session run from another copy of the package's source."""

    def __init__(self, src: Path, args: list[str]) -> None:
        env = {**os.environ, "PYTHONPATH": str(src)}
        found = subprocess.run(
            [sys.executable, "-c", "import fichaflow; print(fichaflow.__file__)"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        if not Path(found).resolve().is_relative_to(src.resolve()):
            raise SystemExit(f"the baseline engine imports fichaflow from {found}, not {src}")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "fichaflow", "--lang", "en", "engine", *args],
            env=env,
            cwd=src,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            bufsize=1,
        )

    def ask(self, view: SeatView) -> Move:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(view.to_json()) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        if "move" not in answer:
            raise RuntimeError(f"the baseline engine refused a view: {answer}")
        return read_move(answer["move"], view.left, view.right, draws=True)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=30)


class EngineBot(Bot):
    """A seat played by the baseline engine."""

    name = "gallo-baseline"
    searches = True

    def __init__(self, engine: Engine, seed: int = 0) -> None:
        super().__init__(seed)
        self.engine = engine

    def choose(self, view: SeatView) -> Move:
        if len(view.legal) == 1:
            return view.legal[0]  # as gallo does: no search, no round trip
        return self.engine.ask(view)


@dataclass(frozen=True, slots=True)
class AgainstEngine(DuelSpec):
    """The runner's duel with bot B's seats played by the baseline engine (one process only:
    the engine is not sent to workers)."""

    engine: Engine | None = None

    def make(self, which: int, seed: int) -> Bot:
        if which == 1:
            assert self.engine is not None
            return EngineBot(self.engine, seed)
        return DuelSpec.make(self, which, seed)  # (slots: no zero-argument super)


@contextmanager
def baseline_source(tag: str) -> Iterator[Path]:
    """The tag's ``src/`` in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="gallo-baseline-") as folder:
        archive = Path(folder) / "src.tar"
        subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", f"--output={archive}", tag, "src"],
            check=True,
        )
        with tarfile.open(archive) as tar:
            tar.extractall(folder, filter="data")
        yield Path(folder) / "src"


def budgets(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    """The new gallo's options and the baseline engine's arguments: the same clock, or each
    gallo's work budget (``--nodes`` the new one's, ``--baseline-nodes`` the baseline's; in
    ``check`` both the same)."""
    if args.clock:
        ms = args.budget_ms
        return {"budget_ms": ms}, ["--samples", "100000", "--nodes", "2000000", "--time-ms",
                                   str(round(ms))]  # fmt: skip
    work = {"samples": args.samples, "nodes": args.nodes}
    theirs = args.nodes if args.baseline_nodes is None else args.baseline_nodes
    return {"budget_ms": None, **work}, ["--samples", str(args.samples), "--nodes", str(theirs)]


def new_options(args: argparse.Namespace) -> tuple[dict[str, Any], list[str]]:
    """:func:`budgets`, with ``--options`` over the new gallo's (the baseline takes none)."""
    options, engine_args = budgets(args)
    return {**options, **json.loads(args.options)}, engine_args


def play(args: argparse.Namespace) -> None:
    rules = Rules.make(args.mode)
    options, engine_args = new_options(args)
    budget = "clock" if args.clock else "work"
    started = time.time()
    cpu = time.process_time()  # the engine's CPU comes from its rusage once it has ended
    with baseline_source(args.tag) as src:
        engine = Engine(src, ["--bot", "gallo", "--seed", "0", *engine_args])
        spec = AgainstEngine("gallo", "gallo", rules, args.seed, options_a=options, engine=engine)
        tasks = [("hand", g) for g in range(args.deals[0], args.deals[1])]
        with open(args.out, "a", encoding="utf-8") as out:
            for games in play_groups(spec, tasks, workers=1):
                for g in games:
                    row = {
                        "mode": args.mode,
                        "seed": args.seed,
                        "tag": args.tag,
                        "budget": budget,
                        "options": options,
                        "baseline": engine_args,
                        "group": g.group,
                        "seating": list(g.seating),
                        "leader": g.leader,
                        "winner": g.winner,
                        "points": list(g.points),
                        "times": [[round(t, 5) for t in side] for side in g.times],
                    }
                    out.write(json.dumps(row) + "\n")
                out.flush()  # a chunk stopped early keeps its finished groups
        engine.close()
    wall, mine = time.time() - started, time.process_time() - cpu
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    theirs = child.ru_utime + child.ru_stime
    print(f"{args.mode}: deals {args.deals[0]}..{args.deals[1]} in {wall:.0f} s, CPU s: "
          f"{mine:.0f} in this process, {theirs:.0f} in the engine")  # fmt: skip


def check(args: argparse.Namespace) -> None:
    """The harness against itself: hands played by the new gallo with the engine's seed, every
    decision also asked of the engine at ``--tag`` with the same budget. By default the tag is
    ``HEAD``, this checkout's own commit, so every answer must agree: the protocol's round trip
    changes nothing a gallo sees. (Against the baseline no option makes today's gallo search as
    it did: its playouts shed doubles first since 2026-12-03.)"""
    rules = Rules.make(args.mode)
    options, engine_args = new_options(args)
    counts = {"same": 0, "different": 0}
    with baseline_source(args.tag) as src:
        engine = Engine(src, ["--bot", "gallo", "--seed", "0", *engine_args])

        class Both(Bot):
            name = "gallo-and-baseline"

            def __init__(self) -> None:
                super().__init__(0)
                self.gallo = make_bot("gallo", 0, **options)

            def choose(self, view: SeatView) -> Move:
                move = self.gallo.choose(view)
                if len(view.legal) > 1:
                    counts["same" if engine.ask(view) == move else "different"] += 1
                return move

        for k in range(args.hands):
            deal = Deal.from_seed(rules.seats, f"gallo-vs-gallo-check:{args.seed}:{k}")
            play_hand(rules, deal, [Both() for _ in range(rules.seats)], k % rules.seats)
        engine.close()
    print(json.dumps({"mode": args.mode, "hands": args.hands, "decisions": counts}))


def summary(args: argparse.Namespace) -> None:
    runs: dict[tuple[str, ...], dict[int, list[dict[str, Any]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            for line in f:
                try:
                    row = json.loads(line)
                except ValueError:
                    continue  # a line cut short by a stopped run
                # (rows written before the baseline's arguments were kept: the same nodes)
                baseline = row.get("baseline") or ["(the same budget)"]
                key = (row["mode"], row["tag"], row["budget"], json.dumps(row["options"]),
                       " ".join(baseline))  # fmt: skip
                runs[key][row["group"]].append(row)
    report: dict[str, Any] = {"python": platform.python_version(), "duels": []}
    for (mode, tag, budget, options, baseline), groups in runs.items():
        size = max(len(rows) for rows in groups.values())
        whole = [groups[k] for k in sorted(groups) if len(groups[k]) == size]
        games = [[_game(r) for r in rows] for rows in whole]
        result = tally(games).to_json()
        times = [[t for rows in whole for r in rows for t in r["times"][i]] for i in (0, 1)]
        report["duels"].append(
            {
                "mode": mode,
                "against": tag,
                "budget": budget,
                "options": json.loads(options),
                "baseline_arguments": baseline,
                "deals": len(whole),
                "hands": result["played"],
                "won_lost_nobody": [*result["won"], result["undecided"]],
                "share_of_decided": result["share"],
                "tantos_per_hand_difference": result["difference"],
                "decision_ms": {
                    "gallo": timing(times[0]).to_json(),
                    "baseline": timing(times[1]).to_json(),
                },
            }
        )
    print(json.dumps(report, indent=1))


def paired(args: argparse.Namespace) -> None:
    """Two runs of the same deals (say, a change on and off) against the same baseline, deal by
    deal: what the first gains over the second, with intervals over the deals both played."""
    first, second = outcomes_by_deal(args.first), outcomes_by_deal(args.second)
    print(json.dumps(paired_gains(first, second).to_json(), indent=1))


def outcomes_by_deal(path: str) -> dict[int, Outcome]:
    """Each whole deal's (group's) points of bot A minus bot B's per hand, and A's hands won,
    from the duel runner's rows (here the new gallo against the baseline)."""
    groups: dict[int, list[dict[str, Any]]] = defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                row = json.loads(line)
            except ValueError:
                continue
            groups[row["group"]].append(row)
    size = max(len(rows) for rows in groups.values())
    return {
        k: (
            sum(r["points"][0] - r["points"][1] for r in rows) / size,
            sum(r["winner"] == 0 for r in rows),
        )
        for k, rows in groups.items()
        if len(rows) == size
    }


def _game(row: dict[str, Any]) -> Game:
    """A stored game, for the runner's tally (which reads winners and points only)."""
    times = (tuple(row["times"][0]), tuple(row["times"][1]))
    return Game("hand", row["group"], tuple(row["seating"]), None, row["leader"],  # type: ignore[arg-type]
                row["winner"], (row["points"][0], row["points"][1]), 1, times)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--mode", default="venezuela", help="a preset: venezuela, mano_a_mano, tres")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--deals", type=int, nargs=2, default=[0, 20], metavar=("FROM", "TO"),
                   help="the deal groups to play (each deal in every seating)")  # fmt: skip
    p.add_argument("--tag", default=BASELINE, help="the baseline's git revision")
    p.add_argument("--samples", type=int, default=150, help="work budget: deals per decision")
    p.add_argument(
        "--nodes",
        type=int,
        default=DEFAULT_NODES,
        help="the new gallo's work budget: solver nodes (its engine's default)",
    )
    p.add_argument("--baseline-nodes", type=int, default=BASELINE_NODES,
                   help="the baseline's solver nodes (its engine's default)")  # fmt: skip
    p.add_argument("--clock", action="store_true", help="a clock budget instead of work")
    p.add_argument("--budget-ms", type=float, default=150.0, help="the clock, with --clock")
    p.add_argument("--options", default="{}",
                   help='more options for the new gallo, as JSON: {"correct": false}')  # fmt: skip
    p.add_argument("--out", required=True)
    k = sub.add_parser("check", help="every decision of a few hands asked of both gallos")
    k.add_argument("--mode", default="venezuela")
    k.add_argument("--seed", type=int, default=2026)
    k.add_argument("--hands", type=int, default=3)
    k.add_argument("--tag", default="HEAD", help="the engine's git revision (this checkout's)")
    k.add_argument("--samples", type=int, default=150)
    k.add_argument("--nodes", type=int, default=DEFAULT_NODES)
    k.set_defaults(baseline_nodes=None)
    k.add_argument("--clock", action="store_true", help=argparse.SUPPRESS)
    k.add_argument("--budget-ms", type=float, default=150.0, help=argparse.SUPPRESS)
    k.add_argument("--options", default="{}")
    s = sub.add_parser("summary")
    s.add_argument("files", nargs="+")
    c = sub.add_parser("paired", help=paired.__doc__.splitlines()[0] if paired.__doc__ else None)
    c.add_argument("first")
    c.add_argument("second")
    args = parser.parse_args()
    {"play": play, "check": check, "summary": summary, "paired": paired}[args.command](args)


if __name__ == "__main__":
    main()
