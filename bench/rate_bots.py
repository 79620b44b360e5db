"""Measure the bots' fixed ratings, on the scale people are rated on, from duplicate duels.

The plan (``bench/rate_bots_plan.json``, committed) lists duels: which bots, with which options,
play whole partidas against each other in which modes, from which seed. Every duel runs in the
project's duel runner (each deal in every seating, so both bots hold the same hands). Every
partida is kept, deal by deal, as its seating and its winner (``AA|BB>B``: the sides' seats by
bot, A or B of the duel, then the bot that won), and those games are all the fit reads:
``fichaflow.ratings.calibrate.ratings_of`` (the Plackett–Luce model that rates people,
tirafichas pinned at 1000, bootstrap intervals) turns them into the ratings. Both, games and
ratings, are written to ``src/fichaflow/ratings/bots.json``, which the server reads, so the
ratings can be refitted from the shipped file alone (``tests/ratings/test_bots_reproduce.py``
does). The same plan gives the same file, whatever the number of workers. Each entry's games
are kept in a cache folder, so that adding an entry (say, gallo, whose partidas take minutes)
replays only that one.

    python bench/rate_bots.py --no-cache --write
    python bench/rate_bots.py --only 0          # replay the plan's first entry, print its games

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
from itertools import combinations
from pathlib import Path
from typing import Any

from fichaflow.core.rules import Mode, Rules
from fichaflow.match.duplicate import DuelSpec, plan, play_groups
from fichaflow.ratings.calibrate import RESAMPLES, ratings_of

PINNED = "tirafichas"
PINNED_AT = 1000
PRESET = {Mode.PAREJAS: "venezuela", Mode.MANO_A_MANO: "mano_a_mano", Mode.TRES: "tres"}
HERE = Path(__file__).resolve().parent
PLAN = HERE / "rate_bots_plan.json"
SHIPPED = HERE.parent / "src" / "fichaflow" / "ratings" / "bots.json"
CACHE = HERE.parent / ".cache" / "rate_bots"
GAMES_FORMAT = 2  # in the cache key: a cache of another format is not read


def entry_pairs(entry: dict[str, Any]) -> list[tuple[str, str]]:
    if "pairs" in entry:
        return [(a, b) for a, b in entry["pairs"]]
    return list(combinations(entry["bots"], 2))


def duel_groups(a: str, b: str, mode: Mode, entry: dict[str, Any], workers: int) -> list[list[str]]:
    """Every partida of a duplicate duel of ``a`` and ``b``, grouped by deal, each as the text
    ``fichaflow.ratings.calibrate.game_of`` reads: the sides' seats by bot and the winner, e.g.
    ``AA|BB>B`` (a tied partida, which no rated partida can be, is left out)."""
    rules = Rules.load(PRESET[mode])
    options = entry.get("options", {})
    spec = DuelSpec(a, b, rules, entry["seed"], options.get(a, {}), options.get(b, {}))
    groups = []
    for played in play_groups(spec, plan(spec, 0, entry["partidas"]), workers):
        games = []
        for game in played:
            if game.winner is None:
                continue
            sides: dict[int, str] = {}
            for seat, which in enumerate(game.seating):
                sides[rules.team_of(seat)] = sides.get(rules.team_of(seat), "") + "AB"[which]
            games.append("|".join(sides.values()) + ">" + "AB"[game.winner])
        groups.append(games)
    return groups


def play_entry(entry: dict[str, Any], workers: int, use_cache: bool) -> dict[str, Any]:
    """The entry's games, mode by mode and pair by pair (from the cache when it has them)."""
    what = json.dumps([GAMES_FORMAT, entry], sort_keys=True)
    key = hashlib.sha256(what.encode()).hexdigest()[:16]
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--no-cache", action="store_true", help="replay every entry")
    parser.add_argument("--only", type=int, help="replay this entry of the plan, print its tally")
    parser.add_argument("--write", action="store_true", help=f"write {SHIPPED.name}")
    args = parser.parse_args()
    entries: list[dict[str, Any]] = json.loads(PLAN.read_text("utf-8"))["duels"]
    if args.only is not None:
        print(json.dumps(play_entry(entries[args.only], args.workers, False)))
        return
    started = time.perf_counter()
    played = [play_entry(entry, args.workers, not args.no_cache) for entry in entries]
    modes = ratings_of(played, PINNED, PINNED_AT, RESAMPLES)
    document = {
        "plan": "bench/rate_bots_plan.json",
        "pinned": {"bot": PINNED, "rating": PINNED_AT},
        "resamples": RESAMPLES,
        "modes": modes,
        "games": played,
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
