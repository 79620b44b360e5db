"""In de a tres the exact values (the hindsight, deals solved exactly) take both rivals as one side
against the seat: the review says so, in the page's legend and under the terminal's."""

from __future__ import annotations

from fichaflow import i18n
from fichaflow.cli.analyze import hand_lines
from fichaflow.review.hand import review_hand
from fichaflow.review.precision import PRECISIONS
from tests.review.helpers import played


def test_a_tres_review_says_the_rivals_are_taken_together() -> None:
    review = review_hand(played("tres", 3), 0, PRECISIONS["fast"])
    assert review.to_json()["rivals_together"] is True
    lines = hand_lines(review, "es")
    assert lines[-1] == i18n.text("cli.analyze.legend_tres", "es")
    assert "los dos rivales juegan juntos contra ti" in lines[-1]
    english = hand_lines(review, "en")[-1]
    assert english == i18n.text("cli.analyze.legend_tres", "en")
    assert "both rivals" in english and "together against you" in english
    assert "juegan juntos contra ti" in i18n.text("repaso.legend_tres", "es")


def test_a_partnership_review_has_no_such_note() -> None:
    review = review_hand(played("venezuela", 3), 0, PRECISIONS["fast"])
    assert review.to_json()["rivals_together"] is False
    words = i18n.text("cli.analyze.legend_tres", "es")
    assert words not in hand_lines(review, "es")
