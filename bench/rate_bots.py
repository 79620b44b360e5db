"""Measure the bots' fixed ratings, on the scale people are rated on, from duplicate duels.

The plan (``bench/rate_bots_plan.json``, committed) lists duels: which bots, with which options,
play whole partidas against each other in which modes, from which seed. Every duel runs in the
project's duel runner (each deal in every seating, so both bots hold the same hands). The
partidas' winners are then fitted, mode by mode, by ``fichaflow.ratings.calibrate`` (the
Plackett–Luce model that rates people), tirafichas pinned at 1000, and written to
``src/fichaflow/ratings/bots.json``, which the server reads. The same plan gives the same file,
whatever the number of workers. Each entry's games are kept in a cache folder, so that adding
an entry (say, gallo, whose partidas take minutes) replays only that one.

    python bench/rate_bots.py --workers 2 --write
    python bench/rate_bots.py --only 0          # replay the plan's first entry, print its tally

gallo plays on a work budget (``budget_ms: null`` and a number of samples) rather than its
server clock, so that its games, and its rating, do not depend on how busy the machine is.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import platform
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

from fichaflow.core.rules import Mode, Rules
from fichaflow.match.duplicate import DuelSpec, plan, play_groups
from fichaflow.ratings.calibrate import Game, fit_with_intervals

PINNED = "tirafichas"
PINNED_AT = 1000
RESAMPLES = 200
PRESET = {Mode.PAREJAS: "venezuela", Mode.MANO_A_MANO: "mano_a_mano", Mode.TRES: "tres"}
HERE = Path(__file__).resolve().parent
PLAN = HERE / "rate_bots_plan.json"
SHIPPED = HERE.parent / "src" / "fichaflow" / "ratings" / "bots.json"
CACHE = HERE.parent / ".cache" / "rate_bots"


def entry_pairs(entry: dict[str, Any]) -> list[tuple[str, str]]:
    if "pairs" in entry:
        return [(a, b) for a, b in entry["pairs"]]
    return list(combinations(entry["bots"], 2))


def duel_groups(
    a: str, b: str, mode: Mode, entry: dict[str, Any], workers: int
) -> list[list[list[Any]]]:
    """Every partida of a duplicate duel of ``a`` and ``b``, grouped by deal, as JSON: each game
    is [sides, winner] (a tied partida, which no rated partida can be, is left out)."""
    rules = Rules.load(PRESET[mode])
    options = entry.get("options", {})
    spec = DuelSpec(a, b, rules, entry["seed"], options.get(a, {}), options.get(b, {}))
    groups = []
    for played in play_groups(spec, plan(spec, 0, entry["partidas"]), workers):
        games = []
        for game in played:
            if game.winner is None:
                continue
            names = (a, b)
            sides: dict[int, list[str]] = {}
            for seat, which in enumerate(game.seating):
                sides.setdefault(rules.team_of(seat), []).append(names[which])
            games.append([list(sides.values()), names[game.winner]])
        groups.append(games)
    return groups


def play_entry(entry: dict[str, Any], workers: int, use_cache: bool) -> dict[str, Any]:
    """The entry's games, mode by mode and pair by pair (from the cache when it has them)."""
    key = hashlib.sha256(json.dumps(entry, sort_keys=True).encode()).hexdigest()[:16]
    cached = CACHE / f"{key}.json"
    if use_cache and cached.exists():
        loaded: dict[str, Any] = json.loads(cached.read_text("utf-8"))
        return loaded
    out: dict[str, Any] = {}
    for mode_name in entry["modes"]:
        mode = Mode(mode_name)
        for a, b in entry_pairs(entry):
            started = time.perf_counter()
            out[f"{mode}:{a}:{b}"] = duel_groups(a, b, mode, entry, workers)
            print(f"{mode} {a}-{b}: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(out), "utf-8")
    return out


def tally(played: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Partidas won by each bot, per duel: what a rerun must reproduce exactly."""
    return {
        duel: dict(sorted(Counter(w for games in groups for _, w in games).items()))
        for duel, groups in played.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--no-cache", action="store_true", help="replay every entry")
    parser.add_argument("--only", type=int, help="replay this entry of the plan, print its tally")
    parser.add_argument("--write", action="store_true", help=f"write {SHIPPED.name}")
    args = parser.parse_args()
    entries: list[dict[str, Any]] = json.loads(PLAN.read_text("utf-8"))["duels"]
    if args.only is not None:
        print(json.dumps(tally(play_entry(entries[args.only], args.workers, False))))
        return
    started = time.perf_counter()
    by_mode: dict[str, list[list[Game]]] = {}
    tallies = []
    for entry in entries:
        played = play_entry(entry, args.workers, not args.no_cache)
        tallies.append(tally(played))
        for duel, groups in played.items():
            mode = duel.split(":")[0]
            by_mode.setdefault(mode, []).extend(
                [Game(tuple(tuple(s) for s in sides), winner) for sides, winner in games]
                for games in groups
            )
    modes = {}
    for mode, groups in by_mode.items():
        fitted = fit_with_intervals(groups, PINNED, PINNED_AT, RESAMPLES, seed=len(groups))
        modes[mode] = {
            bot: {"rating": f.rating, "low": f.low, "high": f.high, "partidas": f.games}
            for bot, f in sorted(fitted.items(), key=lambda item: item[1].rating)
        }
    document = {
        "plan": "bench/rate_bots_plan.json",
        "pinned": {"bot": PINNED, "rating": PINNED_AT},
        "tallies": tallies,
        "modes": modes,
    }
    bots = sorted(
        {b for table in modes.values() for b in table},
        key=lambda b: modes["parejas"].get(b, {}).get("rating", 0),
    )
    print(f"| mode | {' | '.join(bots)} |")
    print(f"|---|{'---|' * len(bots)}")
    for mode, table in modes.items():
        cells = [
            f"{table[b]['rating']} ({table[b]['low']}–{table[b]['high']})" if b in table else "—"
            for b in bots
        ]
        print(f"| {mode} | {' | '.join(cells)} |")
    print(
        f"{time.perf_counter() - started:.0f} s, Python {platform.python_version()}",
        file=sys.stderr,
    )
    text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    if args.write:
        SHIPPED.write_text(text, "utf-8")


if __name__ == "__main__":
    main()
