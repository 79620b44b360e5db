"""A decision in plain words (review/plain.py): what the move played won or lost in tantos
against the best, and a sentence when the real hands disagree with that verdict."""

from __future__ import annotations

from fichaflow.core.hand import End, Move
from fichaflow.core.tiles import parse
from fichaflow.review.evaluate import BEST, GOOD, MISTAKE, Evaluation, MoveValue
from fichaflow.review.plain import hindsight_sentence, plain_json, tantos, verdict_sentence
from fichaflow.search.estimate import Estimate


def value(name: str, points: float, cost: float, verdict: str, real: float | None,
          end: End | None = End.LEFT) -> MoveValue:  # fmt: skip
    return MoveValue(Move(parse(name), end), Estimate(points, 0.5), Estimate(0.5, 0.05),
                     Estimate(cost, 0.4), verdict, real)  # fmt: skip


def evaluation(*moves: MoveValue) -> Evaluation:
    return Evaluation(0, moves, "fast", 80, 0, 320, 0, hindsight_solved=True)


def test_a_mistake_says_what_it_cost_in_tantos() -> None:
    best = value("5-5", 12.0, 0.0, BEST, 10.0)
    played = value("4-2", 9.0, 3.0, MISTAKE, 2.0)
    weighed = evaluation(best, played)
    assert verdict_sentence(weighed, played) == (
        "Jugaste 4-2: con esa jugada se esperaban 3 tantos menos que con 5-5 (la mejor)."
    )
    assert verdict_sentence(weighed, played, "en") == (
        "You played 4-2: it was expected to make 3 points less than 5-5 (the best)."
    )
    assert hindsight_sentence(weighed, played) is None  # the real hands agree: no second word


def test_the_best_move_says_by_how_much_and_the_numbers_read_as_spanish() -> None:
    best = value("6-4", 7.25, 0.0, BEST, None)
    second = value("6-1", 4.75, 2.5, MISTAKE, None)
    weighed = evaluation(best, second)
    assert verdict_sentence(weighed, best) == (
        "Jugaste 6-4, la mejor jugada: con ella se esperaban 2,5 tantos más que con 6-1, "
        "la siguiente."
    )
    assert tantos(1.0) == "1 tanto" and tantos(0.96) == "1 tanto" and tantos(2.25) == "2,2 tantos"
    assert hindsight_sentence(weighed, best) is None  # not solved: nothing to say


def test_bad_luck_is_not_a_mistake() -> None:
    """The right move by what the seat saw, beaten with the tiles really dealt."""
    best = value("5-2", 3.0, 0.0, BEST, -13.0)
    other = value("2-1", 1.0, 2.0, GOOD, 4.0)
    weighed = evaluation(best, other)
    assert hindsight_sentence(weighed, best) == (
        "Con las fichas que de verdad había, 2-1 habría dado 4 tantos a favor y 5-2, 13 tantos "
        "en contra: con lo que veías no se podía saber. Tuviste mala suerte, no fue un error."
    )
    plain = plain_json(weighed, best)
    assert plain["hindsight"] is not None and "bad luck, not a mistake" in plain["hindsight"]["en"]


def test_luck_is_not_a_good_move() -> None:
    best = value("4-2", 5.0, 0.0, BEST, -23.0)
    played = value("4-3", -1.0, 6.0, MISTAKE, 18.0)
    weighed = evaluation(best, played)
    assert hindsight_sentence(weighed, played) == (
        "Con las fichas que de verdad había, 4-3 habría dado 18 tantos a favor y 4-2, 23 tantos "
        "en contra: esta vez salía bien, pero con lo que veías 4-2 era la jugada."
    )


def test_a_tile_with_two_places_names_its_end() -> None:
    left = value("6-0", 2.0, 0.0, BEST, 1.0)
    right = value("6-0", 1.8, 0.2, GOOD, 1.0, End.RIGHT)
    weighed = evaluation(left, right)
    assert verdict_sentence(weighed, right).startswith(
        "Jugaste 6-0 por la derecha: con esa jugada se esperaban 0,2 tantos menos que con 6-0 "
        "por la izquierda (la mejor), pero es tan poco"
    )
