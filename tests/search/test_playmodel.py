"""The play model gallo weighs its sampled deals by: its written-out odds are the softmax of its
habits, they add up to one over the legal moves, and the shipped weights read what gallo does."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from fichaflow.core.tiles import SUIT, parse
from fichaflow.search.playmodel import FEATURES, WEIGHTS, features, move_odds

SEATS = 4


def _legal(hand: int, left: int, right: int) -> list[tuple[int, int]]:
    if left < 0:
        return [(t, 0) for t in range(28) if hand >> t & 1]
    out = []
    for t in range(28):
        if hand >> t & 1:
            if SUIT[left] >> t & 1:
                out.append((t, 0))
            if right != left and SUIT[right] >> t & 1:
                out.append((t, 1))
    return out


situations = st.fixed_dictionaries(
    {
        "hand": st.integers(1, (1 << 28) - 1),
        "ends": st.one_of(st.just((-1, -1)), st.tuples(st.integers(0, 6), st.integers(0, 6))),
        "by": st.tuples(st.integers(-1, 3), st.integers(-1, 3)),
        "seat": st.integers(0, 3),
        "on_line": st.lists(st.integers(0, 3), min_size=7, max_size=7),
        "lacks": st.lists(st.integers(0, 127), min_size=SEATS, max_size=SEATS),
        "weights": st.lists(st.floats(-3, 3), min_size=len(FEATURES), max_size=len(FEATURES)),
    }
)


@given(situations)
def test_the_written_out_odds_are_the_habits_softmax_and_add_up_to_one(s: dict) -> None:  # type: ignore[type-arg]
    left, right = s["ends"]
    moves = _legal(s["hand"], left, right)
    if not moves:
        return
    w = tuple(s["weights"])
    partner = (s["seat"] + 2) % SEATS
    scores = []
    for t, e in moves:
        by = s["by"][e] if left >= 0 else -1
        f = features(s["hand"], left, right, t, e, by, s["seat"], partner, s["on_line"], s["lacks"])
        scores.append(math.exp(sum(a * b for a, b in zip(w, f, strict=True))))
    total = 0.0
    for (t, e), score in zip(moves, scores, strict=True):
        odds, count = move_odds(
            w, s["hand"], left, right, t, e, s["by"], s["seat"], partner, s["on_line"], s["lacks"]
        )
        assert count == len(moves)
        assert math.isclose(odds, score / sum(scores), rel_tol=1e-9)
        total += odds
    assert math.isclose(total, 1.0, rel_tol=1e-9)


def _hand(text: str) -> int:
    return sum(1 << parse(t) for t in text.split())


def test_the_shipped_weights_lead_a_double_from_a_long_number() -> None:
    """gallo, like a table player, leads a double, best from the number it holds most of: the
    fitted weights make 5-5 with three more fives likelier than 6-6 alone or than a heavy 6-4."""
    hand = _hand("5-5 5-1 5-2 5-3 6-6 6-4 1-0")
    nothing = [0] * 7
    odds = {
        tile: move_odds(WEIGHTS[4], hand, -1, -1, parse(tile), 0, (-1, -1), 0, 2, nothing, [0] * 4)[
            0
        ]
        for tile in ("5-5", "6-6", "6-4", "1-0")
    }
    assert odds["5-5"] > odds["6-6"] > odds["6-4"] > odds["1-0"]


def test_the_shipped_weights_do_not_starve_a_partner() -> None:
    """In parejas, with 4 and 2 open, 4-5 or 4-3 on the 4: the heavier tile would leave a 5, the
    number the partner passed on, and the lighter one is the likelier play."""
    hand = _hand("4-3 4-5 1-0")
    lacks = [0, 0, 1 << 5, 0]  # seat 2, the partner of seat 0, passed on 5
    to_three = move_odds(WEIGHTS[4], hand, 4, 2, parse("4-3"), 0, (1, 3), 0, 2, [1] * 7, lacks)
    to_five = move_odds(WEIGHTS[4], hand, 4, 2, parse("4-5"), 0, (1, 3), 0, 2, [1] * 7, lacks)
    assert to_three[0] > to_five[0]
    unknown = [0] * 4  # and without the pass, the heavier one
    assert (
        move_odds(WEIGHTS[4], hand, 4, 2, parse("4-5"), 0, (1, 3), 0, 2, [1] * 7, unknown)[0]
        > move_odds(WEIGHTS[4], hand, 4, 2, parse("4-3"), 0, (1, 3), 0, 2, [1] * 7, unknown)[0]
    )
    assert set(WEIGHTS) == {2, 3, 4}
