"""Reading what the person types at the move and end prompts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import End
from fichaflow.core.tiles import parse, tile_of
from fichaflow.tui.commands import (
    Command,
    TileChoice,
    hand_order,
    parse_command,
    parse_end,
)

HAND = [parse(t) for t in ("6-6", "6-4", "5-3", "2-1", "0-0")]


def mask(tiles: list[int]) -> int:
    return sum(1 << t for t in tiles)


def test_tiles_are_numbered_highest_first_as_players_arrange_them():
    order = hand_order(mask([parse("0-0"), parse("5-3"), parse("6-6"), parse("2-1"), parse("6-4")]))
    assert order == HAND


@pytest.mark.parametrize(
    ("typed", "word"),
    [
        ("p", Command.PASS),
        ("paso", Command.PASS),
        ("PASO", Command.PASS),
        ("r", Command.DRAW),
        ("robar", Command.DRAW),
        ("?", Command.HELP),
        ("ayuda", Command.HELP),
        ("a", Command.SHEET),
        ("anotador", Command.SHEET),
        ("m", Command.TABLE),
        ("q", Command.QUIT),
        ("salir", Command.QUIT),
        ("   ", Command.NOTHING),
    ],
)
def test_words(typed: str, word: Command) -> None:
    assert parse_command(typed, HAND) is word


def test_a_number_names_the_tile_shown_with_it():
    assert parse_command("2", HAND) == TileChoice(parse("6-4"))
    assert parse_command(" 5 ", HAND) == TileChoice(parse("0-0"))


def test_a_written_tile_keeps_the_half_written_first_for_the_lead():
    assert parse_command("4-6", HAND) == TileChoice(parse("6-4"), first=4)
    assert parse_command("6-4", HAND) == TileChoice(parse("6-4"), first=6)


def test_the_end_can_be_said_with_the_tile():
    assert parse_command("2 d", HAND) == TileChoice(parse("6-4"), None, End.RIGHT)
    assert parse_command("6-4 izquierda", HAND) == TileChoice(parse("6-4"), 6, End.LEFT)
    assert parse_command("6-4:right", HAND) == TileChoice(parse("6-4"), 6, End.RIGHT)


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("0", "play.number_range"),
        ("6", "play.number_range"),
        ("hola", "play.bad_input"),
        ("1 2 3", "play.bad_input"),
        ("7-1", "tile.invalid"),
        ("2 arriba", "play.bad_end"),
    ],
)
def test_bad_input_is_a_clear_error(typed: str, code: str) -> None:
    with pytest.raises(FichaFlowError) as caught:
        parse_command(typed, HAND)
    assert caught.value.code == code
    message = caught.value.message("es")
    assert message and "\n" not in message


@pytest.mark.parametrize(
    ("typed", "end"),
    [
        *[("i", End.LEFT), ("Izquierda", End.LEFT), ("l", End.LEFT), ("<", End.LEFT)],
        *[("d", End.RIGHT), ("derecha", End.RIGHT), ("r", End.RIGHT), (">", End.RIGHT)],
    ],
)
def test_ends(typed: str, end: End) -> None:
    assert parse_end(typed) is end


def test_an_empty_end_answer_goes_back_and_a_wrong_one_is_an_error():
    assert parse_end("") is None
    with pytest.raises(FichaFlowError) as caught:
        parse_end("arriba")
    assert "«arriba» no es un extremo" in caught.value.message("es")


@given(st.text(max_size=12))
def test_any_text_is_an_intent_or_a_clear_error(text: str) -> None:
    try:
        intent = parse_command(text, HAND)
    except FichaFlowError as error:
        assert error.message("es") and error.message("en")
    else:
        assert isinstance(intent, (Command, TileChoice))
        if isinstance(intent, TileChoice):
            assert 0 <= intent.tile < 28


@given(st.integers(0, 6), st.integers(0, 6))
def test_any_written_tile_is_that_tile_in_either_order(a: int, b: int) -> None:
    assert parse_command(f"{a}-{b}", HAND) == TileChoice(tile_of(a, b), a)
