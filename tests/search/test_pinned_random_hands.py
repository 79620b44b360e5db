"""The search engine's random hands, pinned for fixed seeds: the same random numbers must give the
same deals, the same playouts and the same ends, and use up as many random numbers, so that a
change made for speed cannot change gallo's play or the Repaso's values.

Each case deals and plays out many hands from one seeded generator (uniform and greedy playouts,
from the deal and from positions part-way through, at every table size) and writes down a few
hands in full and a digest of all of them. When the results are meant to change, write the
figures again and say why in the commit:

    python -m tests.search.test_pinned_random_hands
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from fichaflow.core.tiles import COCHINA
from fichaflow.search.dealer import holder, random_deal
from fichaflow.search.engine import FastHand

PINNED = Path(__file__).with_name("pinned_random_hands.json")
HANDS = 400
SHOWN = 3
CASES = tuple(
    (seats, seed, greedy, prefix)
    for seats in (4, 3, 2)
    for seed, greedy, prefix in ((1, 0.0, 0), (2, 0.0, 5), (3, 0.5, 0), (4, 0.5, 9))
)
"""(seats, seed, greedy, prefix): ``prefix`` moves made by a playout-free walk before the
playout (the first legal move each turn), so that playouts also start mid-hand."""


def _case(seats: int, seed: int, greedy: float, prefix: int) -> dict[str, Any]:
    rng = random.Random(seed)
    rand = rng.random
    fast = FastHand([0] * seats)
    traced = FastHand([0] * seats)
    moves = [0] * 64
    digest = hashlib.sha256()
    shown = []
    for i in range(HANDS):
        hands, stock = random_deal(rand, seats)
        lead = holder(hands, COCHINA) if seats == 4 else i % seats
        forced = COCHINA if seats == 4 and i % 2 else -1
        fast.reset(hands, stock, lead, forced)
        for _ in range(prefix):
            if fast.ended:
                break
            fast.legal(moves)
            fast.make(moves[0])
        state = rng.getstate()
        key = fast.playout(rand, greedy)
        after = rng.getstate()
        # The same playout again, traced: the same moves and end, the same numbers used.
        rng.setstate(state)
        traced.reset(hands, stock, lead, forced)
        for _ in range(prefix):
            if traced.ended:
                break
            traced.legal(moves)
            traced.make(moves[0])
        trace: list[int] = []
        assert traced.playout(rand, greedy, trace) == key
        assert rng.getstate() == after
        row = [hands, stock, list(key), trace]
        digest.update(json.dumps(row).encode())
        if i < SHOWN:
            shown.append(row)
    return {
        "seats": seats,
        "seed": seed,
        "greedy": greedy,
        "prefix": prefix,
        "shown": shown,
        "digest": digest.hexdigest(),
        "next": rand(),
    }


def everything() -> list[dict[str, Any]]:
    return [_case(*case) for case in CASES]


def test_random_hands_are_as_pinned() -> None:
    pinned = json.loads(PINNED.read_text(encoding="utf-8"))
    now = json.loads(json.dumps(everything()))
    assert len(now) == len(pinned)
    for found, expected in zip(now, pinned, strict=True):
        assert found == expected


if __name__ == "__main__":
    found = everything()
    text = "[\n" + ",\n".join(json.dumps(case) for case in found) + "\n]\n"
    assert json.loads(text) == json.loads(json.dumps(found))
    PINNED.write_text(text, encoding="utf-8")
