"""The person's choice in real positions: the game asks for the end whenever a tile fits both,
and never chooses it for them."""

from __future__ import annotations

import pytest

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import DRAW, PASS, End, Hand, Move
from fichaflow.core.rules import Rules
from fichaflow.core.tiles import parse
from fichaflow.core.view import SeatView, hand_view
from fichaflow.tui.person import Ask, LeaveTable, Person
from tests.tui.scripted import ScriptedLines


class Shown:
    """Remembers what the person was shown."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.requests: list[str] = []

    def error(self, error: FichaFlowError) -> None:
        self.errors.append(error.message("es"))

    def help(self) -> None:
        self.requests.append("help")

    def show_table(self) -> None:
        self.requests.append("table")

    def show_sheet(self) -> None:
        self.requests.append("sheet")


def mask(text: str) -> int:
    return sum(1 << parse(t) for t in text.split())


def view_after(hands: list[str], moves: list[Move], seat: int) -> SeatView:
    """Seat ``seat``'s view of a parejas hand after ``moves`` (seat 0 leads)."""
    hand = Hand([mask(h) for h in hands], leader=0)
    for move in moves:
        hand.play(move)
    return hand_view(Rules.make("venezuela"), hand, seat)


def position(lead: str, hands: list[str]) -> SeatView:
    """Seat 0 leads ``lead`` (first half on the left); the view is seat 1's."""
    a = int(lead.split("-")[0])
    return view_after(hands, [Move.lead(parse(lead), a)], 1)


def choose(view: SeatView, lines: list[str]) -> tuple[Move, ScriptedLines, Shown]:
    script, shown = ScriptedLines(lines), Shown()
    move = Person(script, shown).choose(view)
    return move, script, shown


def test_the_end_is_asked_when_both_ends_show_the_same_number():
    view = position("4-4", ["4-4 6-6", "4-1 6-5", "0-0", "1-1"])
    assert (view.left, view.right) == (4, 4)
    move, script, _ = choose(view, ["2", "d"])  # 6-5 is number 1, 4-1 number 2
    assert move == Move(parse("4-1"), End.RIGHT)
    assert [q.kind for q in script.asked] == [Ask.MOVE, Ask.END]
    move, _, _ = choose(view, ["4-1", "izquierda"])
    assert move == Move(parse("4-1"), End.LEFT)


def test_the_end_is_asked_when_a_tile_fits_two_different_ends():
    lead, left = Move.lead(parse("6-5"), 6), Move(parse("6-3"), End.LEFT)
    view = view_after(["6-5 0-0", "6-3 1-1", "5-3 2-2", "4-4"], [lead, left], 2)
    assert (view.left, view.right) == (3, 5)
    move, script, _ = choose(view, ["1", "i"])
    assert move == Move(parse("5-3"), End.LEFT)
    assert script.asked[1].kind is Ask.END
    assert "5-3 pega por los dos lados" in script.asked[1].text


def test_a_tile_that_fits_one_end_is_played_there_without_a_question():
    view = position("6-5", ["6-5 0-0", "6-4 1-1", "2-2", "3-3"])
    move, script, _ = choose(view, ["1"])
    assert move == Move(parse("6-4"), End.LEFT)
    assert [q.kind for q in script.asked] == [Ask.MOVE]


def test_a_tile_that_fits_nowhere_is_still_sent_so_the_core_says_why():
    view = position("6-5", ["6-5 0-0", "6-4 1-1", "2-2", "3-3"])
    move, _, _ = choose(view, ["2"])
    assert move.tile == parse("1-1")
    hand = Hand([mask(h) for h in ["6-5 0-0", "6-4 1-1", "2-2", "3-3"]], leader=0)
    hand.play(Move.lead(parse("6-5"), 6))
    with pytest.raises(FichaFlowError) as caught:
        hand.check(move)
    assert caught.value.message("es") == "La ficha 1-1 no pega: los extremos son 6 y 5"


def test_an_empty_end_answer_takes_the_person_back_to_choosing():
    view = position("4-4", ["4-4 6-6", "4-1 6-5", "0-0", "1-1"])
    move, script, _ = choose(view, ["2", "", "2", "i"])
    assert move == Move(parse("4-1"), End.LEFT)
    assert [q.kind for q in script.asked] == [Ask.MOVE, Ask.END, Ask.MOVE, Ask.END]


def test_bad_answers_are_told_and_asked_again():
    view = position("4-4", ["4-4 6-6", "4-1 6-5", "0-0", "1-1"])
    move, _, shown = choose(view, ["9", "hola", "2", "arriba", "d"])
    assert move == Move(parse("4-1"), End.RIGHT)
    assert shown.errors == [
        "No hay ficha número 9: tus fichas van del 1 al 2",
        "No entiendo «hola»: escribe el número de una ficha o la ficha (6-4), p para pasar, "
        "r para robar o ? para ayuda",
        "«arriba» no es un extremo: escribe i (izquierda) o d (derecha)",
    ]


def test_pass_draw_help_and_quit():
    view = position("4-4", ["4-4 6-6", "4-1 6-5", "0-0", "1-1"])
    assert choose(view, ["?", "a", "m", "p"])[0] == PASS
    move, _, shown = choose(view, ["?", "a", "m", "r"])
    assert move == DRAW
    assert shown.requests == ["help", "sheet", "table"]
    with pytest.raises(LeaveTable):
        choose(view, ["q"])
    with pytest.raises(EOFError):
        choose(view, [])
