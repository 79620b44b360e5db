"""Move notation has one writer and one reader (core.hand): what one writes, the other reads."""

from __future__ import annotations

import random

import pytest

from fichaflow.core.deal import Deal
from fichaflow.core.errors import FichaFlowError, IllegalMove
from fichaflow.core.hand import DRAW, PASS, End, Hand, Move, read_move, write_move
from fichaflow.core.tiles import parse


def test_each_form_of_the_notation() -> None:
    assert write_move(PASS) == "pass"
    assert write_move(DRAW) == "draw"
    assert write_move(Move.lead(parse("6-4"), 4)) == "4-6"
    six_four_left = Move(parse("6-4"), End.LEFT)
    assert write_move(six_four_left) == "6-4:left"  # the protocol names every end
    assert write_move(six_four_left, (6, 3)) == "6-4"  # a record, only where both ends fit
    assert write_move(six_four_left, (6, 4)) == "6-4:left"


def test_reading_uses_the_ends_only_to_place_an_unnamed_end() -> None:
    assert read_move("4-6", -1, -1) == Move.lead(parse("6-4"), 4)
    assert read_move(" 6-4 ", 6, 3) == Move(parse("6-4"), End.LEFT)
    assert read_move("6-4:RIGHT", 6, 4) == Move(parse("6-4"), End.RIGHT)
    assert read_move("draw", 6, 4, draws=True) == DRAW
    for token, code in (
        ("draw", "tile.invalid"),
        ("6-4", "move.end_missing"),
        ("6-4:up", "move.bad_end"),
    ):
        with pytest.raises(FichaFlowError) as error:
            read_move(token, 6, 4)
        assert error.value.code == code


def test_what_is_written_reads_back_as_the_same_move() -> None:
    """Every legal move of random positions, in both forms, through the writer and the reader."""
    rng = random.Random(5)
    checked = 0
    for i in range(60):
        seats = (2, 3, 4)[i % 3]
        deal = Deal.from_seed(seats, f"notation-{i}")
        hand = Hand(list(deal.hands), deal.stock, i % seats)
        while not hand.ended:
            for move in hand.legal_moves():
                ends = (hand.left, hand.right)
                assert read_move(write_move(move), *ends, draws=True) == move
                if not move.is_draw:  # a record leaves draws unwritten
                    assert read_move(write_move(move, ends), *ends) == move
                    assert hand.parse(write_move(move, ends)) == move
                checked += 1
            hand.play(rng.choice(hand.legal_moves()))
    assert checked > 1000


def test_a_token_that_is_no_text_is_refused() -> None:
    with pytest.raises(IllegalMove) as error:
        read_move(64, -1, -1)
    assert error.value.code == "move.bad_token"
