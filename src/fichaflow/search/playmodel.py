"""How likely a player was to make the play they made, given the hand the sampler deals them.

A conditional-logit model over the legal moves: each move gets a score from a few table habits
(shed heavy tiles and doubles, lead a double from a long number, keep on the end a number one
holds, close a number the others cannot follow, leave the next rival a number they passed on,
never one the partner passed on), and a player makes each move in proportion to the exponential
of its score. The weights are fitted to gallo's own play, one set for each number of seats, by
``bench/fit_play_model.py`` and shipped in ``play_model.json`` beside this module: the habits of
the old model (heavy tiles only) told the sampler almost nothing (0.03 nats a decision over
choosing at random, against 0.29; figures in ``docs/benchmarks.md``).
"""

from __future__ import annotations

import json
import math
from importlib import resources
from typing import Final

from fichaflow.core.tiles import HALVES, PIPS, SUIT

FEATURES: Final = (
    "pips",
    "double",
    "keep_new",
    "keep_covered",
    "can_follow",
    "covers_partner",
    "covers_own",
    "same_ends",
    "others_follow",
    "lead_pips",
    "lead_double",
    "lead_suit",
    "next_lacks_new",
    "next_blocked",
    "partner_lacks_new",
)
"""The habits, in the weights' order (see :func:`features`)."""


def features(
    hand: int, left: int, right: int, tile: int, end: int, by: int, seat: int, partner: int,
    on_line: list[int], lacks: list[int],
) -> list[float]:  # fmt: skip
    """The habits of playing ``tile`` at ``end`` (0 left, 1 right; any for a lead) from
    ``hand`` (the player's tiles, ``tile`` among them) with ``left``/``right`` open (-1 before
    the lead): ``by`` is the seat that laid the covered end, ``partner`` the player's partner
    (-1: none), ``on_line`` how many tiles on the line show each number, ``lacks`` the numbers
    each seat was seen to lack (a bit per number: it passed on them)."""
    rest = hand & ~(1 << tile)
    high, low = HALVES[tile]
    out = [0.0] * len(FEATURES)
    if left < 0:
        out[9] = PIPS[tile] / 12
        out[10] = float(high == low)
        out[11] = max((rest & SUIT[high]).bit_count(), (rest & SUIT[low]).bit_count()) / 6
        return out
    covered, other = (left, right) if end == 0 else (right, left)
    new = low if high == covered else high
    out[0] = PIPS[tile] / 12
    out[1] = float(high == low)
    out[2] = (rest & SUIT[new]).bit_count() / 6
    out[3] = (rest & SUIT[covered]).bit_count() / 6
    out[4] = float(bool(rest & (SUIT[new] | SUIT[other])))
    out[5] = float(by == partner >= 0)
    out[6] = float(by == seat)
    out[7] = float(new == other)
    shown = on_line[new] + (high != low)
    out[8] = max(0, 7 - shown - (rest & SUIT[new]).bit_count()) / 7
    following = lacks[(seat + 1) % len(lacks)]
    out[12] = float(following >> new & 1)
    out[13] = float(following >> new & following >> other & 1)
    out[14] = float(partner >= 0 and lacks[partner] >> new & 1)
    return out


def _load() -> dict[int, tuple[float, ...]]:
    text = resources.files(__package__).joinpath("play_model.json").read_text(encoding="utf-8")
    return {
        int(seats): tuple(float(weights[name]) for name in FEATURES)
        for seats, weights in json.loads(text).items()
    }


WEIGHTS: Final = _load()
"""The weights for each number of seats (parejas, de a tres, mano a mano play differently)."""


def move_odds(
    w: tuple[float, ...], hand: int, left: int, right: int, tile: int, end: int,
    by: tuple[int, int], seat: int, partner: int, on_line: list[int], lacks: list[int],
) -> tuple[float, int]:  # fmt: skip
    """The model's probability of the move made (``tile`` at ``end``) among every legal move
    from ``hand``, with the weights ``w`` (one of :data:`WEIGHTS`), and how many legal moves
    there were; ``by`` are the seats that laid the left and the right end, the other arguments
    as :func:`features`'. A tile that fits both of two equal ends is one move. (This is
    :func:`features` written out: the sampler asks it for every play of every deal it draws.)"""
    if left < 0:
        end = 0  # (a lead has no end: every tile is one move)
        scores = _lead_scores(w, hand)
    else:
        fits = hand & (SUIT[left] | SUIT[right])
        if not fits & (fits - 1) and (right == left or not fits & SUIT[left] & SUIT[right]):
            return 1.0, 1  # one tile, and one end for it: no choice
        if right == left:
            end = 0
        scores = _play_scores(w, hand, left, right, by, seat, partner, on_line, lacks)
    made = total = 0.0
    count = 0
    for t, e, score in scores:
        total += score
        count += 1
        if t == tile and e == end:
            made = score
    return made / total, count


def _lead_scores(w: tuple[float, ...], hand: int) -> list[tuple[int, int, float]]:
    """(tile, 0, score) for each tile ``hand`` may lead."""
    out = []
    for t in range(28):
        if hand >> t & 1:
            rest = hand & ~(1 << t)
            high, low = HALVES[t]
            suit = max((rest & SUIT[high]).bit_count(), (rest & SUIT[low]).bit_count())
            score = math.exp(w[9] * PIPS[t] / 12 + w[10] * (high == low) + w[11] * suit / 6)
            out.append((t, 0, score))
    return out


def _play_scores(
    w: tuple[float, ...], hand: int, left: int, right: int, by: tuple[int, int], seat: int,
    partner: int, on_line: list[int], lacks: list[int],
) -> list[tuple[int, int, float]]:  # fmt: skip
    """(tile, end, score) for each move from ``hand`` onto ``left``/``right``."""
    out = []
    suit_left, suit_right = SUIT[left], SUIT[right]
    following = lacks[(seat + 1) % len(lacks)]
    partner_lacks = lacks[partner] if partner >= 0 else 0
    ends = ((0, left, right, suit_left), (1, right, left, suit_right))
    todo = hand & (suit_left | suit_right)
    while todo:
        bit = todo & -todo
        todo ^= bit
        t = bit.bit_length() - 1
        rest = hand ^ bit
        high, low = HALVES[t]
        base = w[0] * PIPS[t] / 12 + w[1] * (high == low)
        for e, covered, other, suit in ends:
            if not suit & bit or (e == 1 and right == left):
                continue
            new = low if high == covered else high
            keep = (rest & SUIT[new]).bit_count()
            laid = by[e]
            score = math.exp(
                base
                + w[2] * keep / 6
                + w[3] * (rest & SUIT[covered]).bit_count() / 6
                + w[4] * bool(rest & (SUIT[new] | SUIT[other]))
                + w[5] * (laid == partner >= 0)
                + w[6] * (laid == seat)
                + w[7] * (new == other)
                + w[8] * max(0, 7 - on_line[new] - (high != low) - keep) / 7
                + w[12] * (following >> new & 1)
                + w[13] * (following >> new & following >> other & 1)
                + w[14] * (partner_lacks >> new & 1)
            )
            out.append((t, e, score))
    return out
