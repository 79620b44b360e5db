"""What the server spends telling a move to a mesa: every seat's view (and a mirón's) built and
encoded, one seat at a time against all seats together, side by side in one run.

After each move of random partidas the server sends each seat its own view. One at a time, each
view works out and writes the whole public history again; together (``seat_views`` and one
``to_json`` memo, as the server does) the history is worked out and written once and only a
seat's own draws differ. Rounds alternate the two ways on the same positions; CPU time; medians.

Then the same partidas played move by move, with every view built after each move, together as
above or with one ``HandMemo`` kept from move to move (as the server keeps one per mesa: each turn
worked out and written once per hand): both include the same playing of the moves, so the
difference between them is the views' alone. Last, the kept memo against the views written
straight from the hand (``seat_views_json``, what the server sends since 2026-12-05: what the
seats see alike written once, no ``SeatView`` made).

    python bench/views_speed.py --rounds 5
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Iterator
from typing import Any, cast

from fichaflow.core.deal import Deal
from fichaflow.core.partida import Partida
from fichaflow.core.rules import Rules
from fichaflow.core.view import (
    HandMemo,
    TurnJson,
    ViewJson,
    seat_view,
    seat_views,
    seat_views_json,
)
from fichaflow.server.wire import Message, json_text

MODES = ("venezuela", "mano_a_mano", "tres")


def random_play(preset: str, moves: int, seed: int) -> Iterator[Partida]:
    """Random partidas played ``moves`` moves in all: the one in play after each move (the same
    object, played on)."""
    rules = Rules.make(preset, target=500)
    rng = random.Random(seed)
    partida = Partida(rules)
    count = 0
    while count < moves:
        if partida.over:
            partida = Partida(rules)
        if partida.current is None:
            the_deal = Deal.from_seed(rules.seats, f"views-{seed}-{count}")
            leader, _ = partida.salida(the_deal)
            partida.start_hand(the_deal, rng.randrange(rules.seats) if leader is None else None)
            continue
        partida.play(rng.choice(partida.current.legal_moves()))
        count += 1
        yield partida


def positions(preset: str, moves: int, seed: int) -> list[Partida]:
    """Snapshots of random partidas, one after every move (each a partida of its own)."""
    return [_copy(partida) for partida in random_play(preset, moves, seed)]


def _copy(partida: Partida) -> Partida:
    copy = Partida(partida.rules)
    copy.scores, copy.played = partida.scores, list(partida.played)
    copy.current = partida.current.copy() if partida.current is not None else None
    return copy


def view_text(view: ViewJson) -> str:
    """A view encoded as the server encodes its messages (the rest of a message is alike)."""
    return json_text(cast(Message, {"view": view}))


def alone(partida: Partida, seats: tuple[int | None, ...]) -> list[str]:
    out = []
    for seat in seats:
        view = seat_view(partida, seat)
        assert view is not None
        out.append(view_text(view.to_json()))
    return out


def together(partida: Partida, seats: tuple[int | None, ...]) -> list[str]:
    views = seat_views(partida, seats)
    memo: dict[int, TurnJson] = {}
    return [view_text(views[seat].to_json(memo)) for seat in seats]


def played(
    preset: str, moves: int, seed: int, memo: HandMemo | None, straight: bool = False
) -> tuple[float, int]:
    """CPU seconds to play ``moves`` moves of the random partidas of :func:`positions` and build
    every seat's view after each (with ``memo``: one kept throughout; ``straight``: written by
    ``seat_views_json``), and a digest of the texts, to check that both ways wrote the same."""
    digest = 0
    start = time.process_time()
    for partida in random_play(preset, moves, seed):
        seats = (None, *range(partida.rules.seats))
        if straight:
            texts = seat_views_json(partida, seats, memo)
            for seat in seats:
                digest ^= hash(view_text(texts[seat]))
            continue
        views = seat_views(partida, seats, memo)
        written: dict[int, TurnJson] = memo.written() if memo is not None else {}
        for seat in seats:
            digest ^= hash(view_text(views[seat].to_json(written)))
    return time.process_time() - start, digest


def per_move(way: Any, cases: list[Partida], seats: tuple[int | None, ...]) -> float:
    start = time.process_time()
    for partida in cases:
        way(partida, seats)
    return (time.process_time() - start) / len(cases) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=3000, help="positions per mode")
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, {args.moves} positions per mode")
    for preset in MODES:
        cases = positions(preset, args.moves, seed=1)
        seats = (None, *range(cases[0].rules.seats))
        assert all(alone(p, seats) == together(p, seats) for p in cases[:300]), "ways disagree"
        rows = []
        for _ in range(args.rounds):
            rows.append((per_move(alone, cases, seats), per_move(together, cases, seats)))
        report(f"{preset}: one at a time", "together", rows)
        kept_rows = []
        for _ in range(args.rounds):
            fresh, fresh_digest = played(preset, args.moves, 1, None)
            kept, kept_digest = played(preset, args.moves, 1, HandMemo())
            assert fresh_digest == kept_digest, "the kept memo wrote other views"
            kept_rows.append((fresh / args.moves * 1e6, kept / args.moves * 1e6))
        report(f"{preset}, played move by move: together", "with a kept memo", kept_rows)
        straight_rows = []
        for _ in range(args.rounds):
            kept, kept_digest = played(preset, args.moves, 1, HandMemo())
            straight, straight_digest = played(preset, args.moves, 1, HandMemo(), straight=True)
            assert kept_digest == straight_digest, "the views written straight differ"
            straight_rows.append((kept / args.moves * 1e6, straight / args.moves * 1e6))
        report(f"{preset}, played move by move: kept memo", "written straight", straight_rows)


def report(before: str, after: str, rows: list[tuple[float, float]]) -> None:
    """One line: the medians of the rounds' (before, after) µs per move, their ratio and its
    range over the rounds."""
    old = statistics.median(r[0] for r in rows)
    new = statistics.median(r[1] for r in rows)
    ratios = [r[0] / r[1] for r in rows]
    print(
        f"{before} {old:.0f} µs per move, {after} {new:.0f} µs ({old / new:.2f}×; rounds "
        f"{min(ratios):.2f}–{max(ratios):.2f})"
    )


if __name__ == "__main__":
    main()
