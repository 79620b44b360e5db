"""The search engine's random deals: whole and fair (each tile as likely in every place, pairs of
tiles together as often as a shuffled deck puts them), for every table size."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from fichaflow.core.tiles import ALL_TILES, COCHINA, NUM_TILES
from fichaflow.search.dealer import holder, random_deal

DEALS = 12_000


def _chi_square(counts: Counter[tuple[int, int]], cells: list[tuple[int, int]], p: float) -> float:
    expected = DEALS * p
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_deal_is_whole(seats: int) -> None:
    rand = random.Random(seats).random
    for _ in range(500):
        hands, stock = random_deal(rand, seats)
        assert len(hands) == seats and all(h.bit_count() == 7 for h in hands)
        assert len(stock) == NUM_TILES - 7 * seats == len(set(stock))
        together = 0
        for mask in (*hands, *(1 << t for t in stock)):
            assert not together & mask
            together |= mask
        assert together == ALL_TILES


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_each_tile_is_as_likely_in_every_place(seats: int) -> None:
    """Where each tile goes (a seat, or a place in the montón's order), against the uniform
    deal: a chi-square far beyond chance fails (its degrees of freedom are about 60 to 380)."""
    rand = random.Random(100 + seats).random
    places = seats + (NUM_TILES - 7 * seats)
    place_counts: Counter[tuple[int, int]] = Counter()
    same_hand = 0
    for _ in range(DEALS):
        hands, stock = random_deal(rand, seats)
        for tile in range(NUM_TILES):
            seat = holder(hands, tile)
            place_counts[(tile, seat if seat >= 0 else seats + stock.index(tile))] += 1
        seat = holder(hands, 0)
        same_hand += seat >= 0 and seat == holder(hands, COCHINA)
    cells = [(t, p) for t in range(NUM_TILES) for p in range(places)]
    # each seat holds 7 of the 28, each place in the montón 1
    by_seat = [(t, s) for t in range(NUM_TILES) for s in range(seats)]
    dof = NUM_TILES * (seats - 1)
    assert _chi_square(place_counts, by_seat, 7 / NUM_TILES) < dof + 6 * (2 * dof) ** 0.5
    if places > seats:
        in_stock = [c for c in cells if c[1] >= seats]
        dof = len(in_stock)
        assert _chi_square(place_counts, in_stock, 1 / NUM_TILES) < dof + 6 * (2 * dof) ** 0.5
    # the 0-0 and the 6-6 share a hand with the chance 6/27 for each seat's hand of seven
    expected = DEALS * seats * (7 / 28) * (6 / 27)
    assert abs(same_hand - expected) < 5 * expected**0.5


def test_holder_finds_the_seat_or_the_monton() -> None:
    hands, stock = random_deal(random.Random(7).random, 2)
    for tile in range(NUM_TILES):
        seat = holder(hands, tile)
        assert (seat >= 0 and hands[seat] >> tile & 1) or (seat == -1 and tile in stock)
