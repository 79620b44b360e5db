"""gallo against the strongest practical player of the ``dominoes`` package, in duplicate hands.

That player sorts its moves by ``bota_gorda`` and, from the package's move 8 on (passes count as
moves there), re-sorts them with ``probabilistic_alphabeta`` over 10 sampled deals. One hand is the
package's 4-player partnership hand, which is our preset ``internacional`` for a single hand: the
holder of the cochina leads it, a dominada counts every hand's pips, a tranque goes to the lighter
pair and counts everything, a tied tranque scores nothing.

Every deal is played twice, with gallo on one side and then on the other. The rules engine keeps
the authoritative hand; the package's game follows it move by move (its own board, its own
automatic passes), and at the end both must agree on who won and how much, or the script stops.

    pip install -e '.[bench]'
    python bench/gallo_vs_dominoes.py --deals 60 --first 0 --out gd.jsonl
    python bench/gallo_vs_dominoes.py --deals 60 --first 60 --out gd.jsonl
    python bench/gallo_vs_dominoes.py --summary gd.jsonl
    python bench/gallo_vs_dominoes.py --paired gd.jsonl other.jsonl

gallo plays on the server's clock (``--budget-ms``, 150) unless ``--options`` says otherwise;
the engine's default work budget, for instance, is
``--options '{"budget_ms": null, "samples": 150, "nodes": 40000}'``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import platform
import random
import statistics
import time
from collections.abc import Iterator
from typing import Any

import dominoes

from fichaflow.bots.ladder import make_bot
from fichaflow.core.deal import Deal
from fichaflow.core.hand import End, Hand, Move
from fichaflow.core.partida import facts_of, first_salida
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import score_hand
from fichaflow.core.tiles import HALVES, bits, tile_of
from fichaflow.core.view import hand_view
from fichaflow.match.stats import Outcome, mean_interval, paired_gains, ratio_interval

RULES = Rules.make("internacional")


def their_player(game: dominoes.Game) -> tuple[Any, bool]:
    """The package's strongest practical player: bota gorda, then alpha-beta from move 8."""
    dominoes.players.bota_gorda(game)
    dominoes.players.probabilistic_alphabeta(start_move=8, sample_size=10)(game)
    move: tuple[Any, bool] = game.valid_moves[0]
    return move


def their_game(deal: Deal, leader: int) -> dominoes.Game:
    hands = [dominoes.Hand([dominoes.Domino(*HALVES[t]) for t in bits(h)]) for h in deal.hands]
    return dominoes.Game(dominoes.Board(), hands, [], leader, (), leader, None)


def play(deal: Deal, gallo_team: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """One hand: gallo's two seats against the package's player on the other two."""
    leader, forced = first_salida(RULES, deal)  # type: ignore[misc]
    hand = Hand(list(deal.hands), (), leader, forced)
    game = their_game(deal, leader)
    gallos = {s: make_bot("gallo", seed * 4 + s, **options) for s in (gallo_team, gallo_team + 2)}
    times: list[float] = []
    random.seed(seed)  # the package samples deals with the global generator
    while not hand.ended:
        legal = hand.legal_moves()
        seat = hand.turn
        if legal == [Move(-1)]:
            hand.play(legal[0])  # a pass: the package passes by itself
            continue
        if hand.left < 0:
            move = legal[0]  # the forced cochina
        elif seat in gallos:
            start = time.perf_counter()
            move = gallos[seat].choose(hand_view(RULES, hand, seat, hand_number=1))
            times.append(time.perf_counter() - start)
        else:
            assert game.turn == seat, (game.turn, seat)
            domino, left = their_player(game)
            move = Move(tile_of(domino.first, domino.second), End.LEFT if left else End.RIGHT)
        hand.play(move)
        a, b = HALVES[move.tile]
        game.make_move(dominoes.Domino(a, b), move.end is not End.RIGHT)
        if not hand.ended:
            while hand.legal_moves() == [Move(-1)] and not hand.ended:
                hand.play(hand.legal_moves()[0])
            assert game.result is None and game.turn == hand.turn, (game.turn, hand.turn)
    score = score_hand(RULES, facts_of(hand))
    # Both engines must agree on the result (the package signs points: + for seats 0 and 2).
    assert game.result is not None
    ours = 0 if score.winner is None else (score.points if score.winner == 0 else -score.points)
    assert ours == game.result.points, (ours, game.result)
    gains = score.gains(RULES.teams)
    return {
        "gallo_won": score.winner == gallo_team,
        "their_won": score.winner is not None and score.winner != gallo_team,
        "gallo_points": gains[gallo_team],
        "their_points": gains[1 - gallo_team],
        "times": times,
    }


def play_deal(args: tuple[int, dict[str, Any]]) -> list[dict[str, Any]]:
    number, options = args
    deal = Deal.from_seed(4, f"gallo-dominoes-{number}")
    return [play(deal, team, options, number * 2 + team) for team in (0, 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50, help="deals (each played twice)")
    parser.add_argument("--first", type=int, default=0, help="number of the first deal")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--budget-ms", type=float, default=150.0)
    parser.add_argument("--options", default="{}", help="gallo's options as JSON, over the clock")
    parser.add_argument("--out", help="also write the per-deal results here (JSON lines)")
    parser.add_argument("--summary", nargs="+", metavar="FILE", help="sum up --out files")
    parser.add_argument(
        "--paired", nargs=2, metavar="FILE", help="what the first run gains over the second"
    )
    args = parser.parse_args()
    if args.summary:
        by_deal = read_deals(args.summary)
        print(json.dumps(summary(list(by_deal.values()), 0.0, 0), indent=1))
        return
    if args.paired:
        first, second = (outcomes(read_deals([path])) for path in args.paired)
        print(json.dumps(paired_gains(first, second).to_json(), indent=1))
        return
    options: dict[str, Any] = {"budget_ms": args.budget_ms, **json.loads(args.options)}
    tasks = [(n, options) for n in range(args.first, args.first + args.deals)]
    started = time.time()
    groups: list[list[dict[str, Any]]] = []
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(args.out, "a", encoding="utf-8")) if args.out else None
        if args.workers > 1:
            pool = stack.enter_context(multiprocessing.Pool(args.workers))
            results: Iterator[list[dict[str, Any]]] = pool.imap(play_deal, tasks, chunksize=1)
        else:
            results = map(play_deal, tasks)
        for (n, _), games in zip(tasks, results, strict=True):
            groups.append(games)
            if out is None:
                continue
            for g in games:
                times = [round(t, 4) for t in g["times"]]
                out.write(json.dumps({"deal": n, "options": options, **g, "times": times}) + "\n")
            out.flush()  # a run stopped early keeps its finished deals
    print(json.dumps(summary(groups, time.time() - started, args.workers), indent=1))


def read_deals(paths: list[str]) -> dict[int, list[dict[str, Any]]]:
    """The rows of ``--out`` files by deal, the deals played both ways only."""
    by_deal: dict[int, list[dict[str, Any]]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                by_deal.setdefault(row["deal"], []).append(row)
    return {n: by_deal[n] for n in sorted(by_deal) if len(by_deal[n]) == 2}


def outcomes(games_by_deal: dict[int, list[dict[str, Any]]]) -> dict[int, Outcome]:
    """Each deal's tantos a hand for gallo over the package, and its hands won."""
    return {
        n: (
            sum(float(g["gallo_points"] - g["their_points"]) for g in games) / len(games),
            sum(g["gallo_won"] for g in games),
        )
        for n, games in games_by_deal.items()
    }


def summary(groups: list[list[dict[str, Any]]], wall: float, workers: int) -> dict[str, Any]:
    won = [sum(g["gallo_won"] for g in games) for games in groups]
    lost = [sum(g["their_won"] for g in games) for games in groups]
    decided = [w + lo for w, lo in zip(won, lost, strict=True)]
    diff = [sum(g["gallo_points"] - g["their_points"] for g in games) / 2 for games in groups]
    times = sorted(t for games in groups for g in games for t in g["times"])
    share = ratio_interval(won, decided)
    interval = mean_interval(diff)
    return {
        "python": platform.python_version(),
        "deals": len(groups),
        "hands": 2 * len(groups),
        "gallo_won": sum(won),
        "dominoes_won": sum(lost),
        "undecided": 2 * len(groups) - sum(decided),
        "gallo_share_of_decided": None if share is None else share.to_json(),
        "points_difference_per_hand": None if interval is None else interval.to_json(),
        "gallo_decision_ms": {
            "decisions": len(times),
            "median": round(1000 * statistics.median(times), 1) if times else None,
            "p99": round(1000 * times[int(0.99 * (len(times) - 1))], 1) if times else None,
        },
        "wall_seconds": round(wall, 1),
        "workers": workers,
    }


if __name__ == "__main__":
    main()
