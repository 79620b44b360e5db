"""The double-six set: 28 tiles, 168 pips, ``6-4`` is ``4-6``, anything else is refused."""

from __future__ import annotations

import itertools

import pytest

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.tiles import HALVES, PIPS, SUIT, TOTAL_PIPS, name, parse, spoken


def test_the_set_has_each_pair_of_halves_once() -> None:
    pairs = {frozenset((a, b)) for a, b in itertools.combinations_with_replacement(range(7), 2)}
    assert len(pairs) == 28
    assert {frozenset(HALVES[t]) for t in range(28)} == pairs


def test_the_set_holds_168_pips() -> None:
    assert sum(PIPS) == 168 == TOTAL_PIPS
    assert sum(a + b for a in range(7) for b in range(a, 7)) == 168


@pytest.mark.parametrize("number", range(7))
def test_each_number_shows_on_seven_tiles(number: int) -> None:
    suit = [t for t in range(28) if SUIT[number] >> t & 1]
    assert len(suit) == 7
    assert all(number in HALVES[t] for t in suit)


def test_a_tile_reads_the_same_either_way_round() -> None:
    assert parse("6-4") == parse("4-6")
    assert name(parse("4-6")) == "6-4"
    assert parse(" 0-0 ") == parse("0-0")
    assert {parse(f"{a}-{b}") for a in range(7) for b in range(7)} == set(range(28))
    assert all(parse(name(t)) == t for t in range(28))


def test_the_spoken_name_says_the_numbers() -> None:
    assert spoken(parse("6-4")) == "seis-cuatro"
    assert spoken(parse("0-5"), "en") == "five-blank"


@pytest.mark.parametrize("text", ["7-1", "6", "6-4-1", "a-b", "", "-", "6_4", "66", "6-", "-6"])
def test_what_is_not_a_tile_is_refused_in_spanish(text: str) -> None:
    with pytest.raises(FichaFlowError) as caught:
        parse(text)
    assert caught.value.code == "tile.invalid"
    assert "no es una ficha" in str(caught.value)
