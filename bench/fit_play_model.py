"""Fits gallo's play model (``src/fichaflow/search/play_model.json``) to gallo's own play.

gallo weighs each deal it samples by how likely the other players' plays were with those hands
(:mod:`fichaflow.search.playmodel`). This script makes that model from data: it plays hands of
gallo against itself (the work budget the benchmarks use, so the same seeds give the same
moves), logs every decision with a choice of tiles (the player's hand, the ends, who laid them,
what the line shows, the move made), and fits the model's weights by maximum likelihood (a
conditional logit, plain gradient ascent with a little ridge), one set of weights per number of
seats. It prints, on a fifth of the decisions held out, how well the fitted model and the one
before it predict the move made (mean log-likelihood of the tile played, and how often the
likeliest tile is the one played), beside choosing at random.

    python bench/fit_play_model.py collect --mode venezuela --hands 0 300 --out plays.jsonl
    python bench/fit_play_model.py fit plays.jsonl            # prints, changes nothing
    python bench/fit_play_model.py fit plays.jsonl --write    # writes play_model.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fichaflow.bots.base import Bot
from fichaflow.bots.ladder import make_bot
from fichaflow.core.deal import Deal
from fichaflow.core.hand import Move
from fichaflow.core.inference import partner
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import HALVES, PIPS
from fichaflow.core.view import SeatView
from fichaflow.match.play import play_hand
from fichaflow.search.playmodel import FEATURES, features

MODEL = Path(__file__).resolve().parent.parent / "src/fichaflow/search/play_model.json"
WORK = {"budget_ms": None, "samples": 150, "nodes": 10_000}
OLD_SHED_HEAVY = 0.15
OLD_ANY_TILE = 0.3
"""The model gallo used until 2026-12-03, for comparison: a softmax over the tiles' pips (this
weight per pip), mixed with a share of tiles chosen at random."""


def facts(view: SeatView, move: Move) -> dict[str, object]:
    """What the model reads of one decision, as JSON."""
    assert view.seat is not None
    mate = partner(view.rules, view.seat)
    by = [-1, -1]
    on_line = [0] * 7
    lacks = [0] * view.rules.seats
    for turn in view.history:
        if turn.kind == "pass":
            lacks[turn.seat] |= 1 << turn.left | 1 << turn.right
        if turn.kind != "play":
            continue
        high, low = HALVES[turn.tile]
        on_line[high] += 1
        on_line[low] += high != low
        if turn.end is None:
            by = [turn.seat, turn.seat]
        else:
            by[int(turn.end)] = turn.seat
    plays = [[m.tile, -1 if m.end is None else int(m.end)] for m in view.legal if m.is_play]
    return {
        "seats": view.rules.seats,
        "seat": view.seat,
        "partner": -1 if mate is None else mate,
        "hand": view.tiles,
        "ends": [view.left, view.right],
        "by": by,
        "on_line": on_line,
        "lacks": lacks,
        "legal": plays,
        "move": [move.tile, -1 if move.end is None else int(move.end)],
    }


class Logger(Bot):
    """A gallo seat that writes down each decision with a choice of tiles."""

    name = "gallo-logged"

    def __init__(self, seed: int, out: list[dict[str, object]]) -> None:
        super().__init__(seed)
        self.gallo = make_bot("gallo", seed, **WORK)
        self.out = out

    def choose(self, view: SeatView) -> Move:
        move = self.gallo.choose(view)
        if len({m.tile for m in view.legal if m.is_play}) > 1:
            self.out.append(facts(view, move))
        return move


def collect(args: argparse.Namespace) -> None:
    rules = Rules.make(args.mode)
    started = time.process_time()
    count = 0
    with open(args.out, "a", encoding="utf-8") as out:
        for k in range(*args.hands):
            rows: list[dict[str, object]] = []
            deal = Deal.from_seed(rules.seats, f"play-model:{args.mode}:{k}")
            bots = [Logger(1000 * k + s, rows) for s in range(rules.seats)]
            play_hand(rules, deal, bots, k % rules.seats)
            for row in rows:
                out.write(json.dumps(row) + "\n")
            count += len(rows)
    print(f"{args.mode}: {count} decisions in {time.process_time() - started:.0f} CPU s")


@dataclass(frozen=True, slots=True)
class Decision:
    """One logged decision: each legal move's habits and its tile, and which was made."""

    rows: list[list[float]]
    tiles: list[int]
    made: int


def decisions(row: dict[str, Any]) -> Decision | None:
    left, right = row["ends"]
    by = row["by"]
    moves = []
    for tile, end in row["legal"]:
        if end == 1 and left == right:
            continue  # the same move as at the left end, in a mirror
        moves.append((tile, max(end, 0)))
    tile, end = row["move"]
    made = (tile, 0 if end == 1 and left == right else max(end, 0))
    if made not in moves:
        return None
    rows = [
        features(
            row["hand"],
            left,
            right,
            t,
            e,
            by[e] if left >= 0 else -1,
            row["seat"],
            row["partner"],
            row["on_line"],
            row["lacks"],
        )
        for t, e in moves
    ]
    return Decision(rows, [t for t, _ in moves], moves.index(made))


def scores(w: list[float], d: Decision) -> list[float]:
    raw = [sum(a * b for a, b in zip(w, x, strict=True)) for x in d.rows]
    top = max(raw)
    exps = [math.exp(v - top) for v in raw]
    total = sum(exps)
    return [v / total for v in exps]


def fit_weights(data: list[Decision], epochs: int, ridge: float) -> list[float]:
    """Maximum likelihood by Adam steps over the whole set."""
    w = [0.0] * len(FEATURES)
    m = [0.0] * len(w)
    v = [0.0] * len(w)
    for step in range(1, epochs + 1):
        grad = [0.0] * len(w)
        for d in data:
            for k, (p, x) in enumerate(zip(scores(w, d), d.rows, strict=True)):
                coef = (k == d.made) - p
                for j, xj in enumerate(x):
                    if xj:
                        grad[j] += coef * xj
        for j in range(len(w)):
            g = grad[j] / len(data) - ridge * w[j]
            m[j] = 0.9 * m[j] + 0.1 * g
            v[j] = 0.999 * v[j] + 0.001 * g * g
            m_hat, v_hat = m[j] / (1 - 0.9**step), v[j] / (1 - 0.999**step)
            w[j] += 0.05 * m_hat / (math.sqrt(v_hat) + 1e-8)
    return w


def tile_odds(probs: dict[int, float], made: int) -> tuple[float, bool]:
    return math.log(probs[made]), max(probs, key=lambda t: probs[t]) == made


def judge(data: list[Decision], w: list[float] | None) -> dict[str, float]:
    """Mean log-likelihood of the tile played and how often the likeliest tile is it: with the
    weights ``w``, or (None) with the pips-only model gallo used before."""
    total = hits = 0.0
    for d in data:
        made = d.tiles[d.made]
        probs: dict[int, float] = defaultdict(float)
        if w is None:
            tiles = sorted(set(d.tiles))
            exps = {t: math.exp(OLD_SHED_HEAVY * PIPS[t]) for t in tiles}
            z = sum(exps.values())
            for t in tiles:
                probs[t] = (1 - OLD_ANY_TILE) * exps[t] / z + OLD_ANY_TILE / len(tiles)
        else:
            for t, p in zip(d.tiles, scores(w, d), strict=True):
                probs[t] += p
        ll, hit = tile_odds(probs, made)
        total += ll
        hits += hit
    return {"log_likelihood": round(total / len(data), 4), "top_tile": round(hits / len(data), 4)}


def fit(args: argparse.Namespace) -> None:
    by_seats: dict[int, list[Decision]] = defaultdict(list)
    for path in args.files:
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                d = decisions(row)
                if d is not None:
                    by_seats[int(row["seats"])].append(d)
    model = json.loads(MODEL.read_text(encoding="utf-8")) if MODEL.exists() else {}
    report = {}
    for seats, data in sorted(by_seats.items()):
        random.Random(seats).shuffle(data)
        cut = len(data) * 4 // 5
        train, test = data[:cut], data[cut:]
        w = fit_weights(train, args.epochs, args.ridge)
        uniform = sum(-math.log(len(set(d.tiles))) for d in test) / len(test)
        report[seats] = {
            "decisions": len(data),
            "weights": {name: round(x, 3) for name, x in zip(FEATURES, w, strict=True)},
            "held_out": {
                "fitted": judge(test, w),
                "pips_only": judge(test, None),
                "at_random": round(uniform, 4),
            },
        }
        if args.write:
            final = fit_weights(data, args.epochs, args.ridge)  # every decision, for shipping
            model[str(seats)] = {n: round(x, 3) for n, x in zip(FEATURES, final, strict=True)}
    print(json.dumps(report, indent=1))
    if args.write:
        MODEL.write_text(json.dumps(model, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"written: {MODEL.name}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="log gallo's self-play decisions")
    c.add_argument("--mode", default="venezuela", help="a preset: venezuela, mano_a_mano, tres")
    c.add_argument("--hands", type=int, nargs=2, default=[0, 100], metavar=("FROM", "TO"))
    c.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the weights; --write ships them")
    f.add_argument("files", nargs="+")
    f.add_argument("--epochs", type=int, default=300)
    f.add_argument("--ridge", type=float, default=0.001)
    f.add_argument("--write", action="store_true")
    args = parser.parse_args()
    {"collect": collect, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()
