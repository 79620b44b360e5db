"""A decision in plain words, for a player who has never heard of expected values: what the
move played won or lost in tantos against the best one («Jugaste 4-2: con esa jugada se
esperaban 3 tantos menos que con 5-5 (la mejor)»), and, where what the real hands would have
given says otherwise, a sentence saying so: a right move that the real tiles punished was bad
luck, not a mistake; a mistake that the real tiles forgave was luck, not a good move.

The words are the catalogue's ``repaso.plain.*``; the numbers are the evaluation's (the expected
cost from what the seat saw, :mod:`fichaflow.review.evaluate`) and the hindsight's (the exact value
of each move with every hand visible)."""

from __future__ import annotations

from typing import Final

from fichaflow import i18n
from fichaflow.core.hand import Move
from fichaflow.core.tiles import name
from fichaflow.review.evaluate import BEST, GOOD, MIN_COST, MISTAKE, Evaluation, MoveValue

TIED: Final = 0.05
"""Closer than this (in tantos, on average), two moves are the same."""


def _t(key: str, lang: str, **params: object) -> str:
    return i18n.text(f"repaso.plain.{key}", lang, **params)


def tantos(value: float, lang: str = "es") -> str:
    """«3 tantos», «1 tanto», «2,5 tantos»: one decimal at most, written as the language does."""
    amount = round(abs(value), 1)
    number = f"{amount:.0f}" if amount == int(amount) else f"{amount:.1f}"
    number = number.replace(".", _t("decimal_point", lang))
    return _t("tantos_one", lang) if number == "1" else _t("tantos_many", lang, n=number)


def _net(value: float, lang: str) -> str:
    """A hand's net value for the seat's side: «12 tantos a favor», «4 tantos en contra»."""
    if round(value, 1) == 0:
        return _t("even", lang)
    return _t("for" if value > 0 else "against", lang, tantos=tantos(value, lang))


def move_words(move: Move, evaluation: Evaluation, lang: str = "es") -> str:
    """The move by its tile («4-2»), with its end when the same tile had two places to go."""
    text = name(move.tile)
    twins = sum(1 for m in evaluation.moves if m.move.tile == move.tile)
    if twins > 1 and move.end is not None:
        text += i18n.text(f"fact.at_{move.end.word}", lang)
    return text


def verdict_sentence(evaluation: Evaluation, played: MoveValue, lang: str = "es") -> str:
    """What the move played won or lost, in tantos, against the best (or the next best)."""
    say = {"move": move_words(played.move, evaluation, lang)}
    best = evaluation.best
    say["best"] = move_words(best.move, evaluation, lang)
    if played.verdict == BEST:
        if len(evaluation.moves) < 2:
            return _t("only", lang, **say)
        second = evaluation.moves[1]
        gap = best.points.mean - second.points.mean
        say["next"] = move_words(second.move, evaluation, lang)
        if gap < TIED:
            return _t("best_tied", lang, **say)
        return _t("best", lang, gap=tantos(gap, lang), **say)
    cost = played.cost.mean
    if cost < TIED:
        return _t("equal", lang, **say)
    key = "mistake" if played.verdict == MISTAKE else "good"
    return _t(key, lang, cost=tantos(cost, lang), **say)


def hindsight_sentence(evaluation: Evaluation, played: MoveValue, lang: str = "es") -> str | None:
    """When the real hands disagree with the verdict: a right move (the best or within the
    noise) that another move would have beaten by a tanto or more with the tiles really dealt
    (bad luck), or a mistake that did as well as the best with them (luck). None otherwise, and
    when the hindsight was not solved."""
    if played.hindsight is None or any(m.hindsight is None for m in evaluation.moves):
        return None
    mine = played.hindsight
    say = {"move": move_words(played.move, evaluation, lang), "played_value": _net(mine, lang)}
    if played.verdict in (BEST, GOOD):
        other = max(evaluation.moves, key=lambda m: m.hindsight or 0.0)
        if other.hindsight is None or other.hindsight - mine < MIN_COST:
            return None
        return _t("unlucky", lang, other=move_words(other.move, evaluation, lang),
                  other_value=_net(other.hindsight, lang), **say)  # fmt: skip
    best = evaluation.best
    if best.hindsight is None or mine < best.hindsight:
        return None
    return _t("lucky", lang, best=move_words(best.move, evaluation, lang),
              best_value=_net(best.hindsight, lang), **say)  # fmt: skip


def plain_json(evaluation: Evaluation, played: MoveValue) -> dict[str, dict[str, str] | None]:
    """Both sentences in both languages, for the Repaso's page (``hindsight``: None when the
    real hands agree with the verdict, or were not solved)."""
    out: dict[str, dict[str, str] | None] = {
        "verdict": {lang: verdict_sentence(evaluation, played, lang) for lang in i18n.LANGUAGES}
    }
    first = hindsight_sentence(evaluation, played)
    out["hindsight"] = (
        None
        if first is None
        else {lang: hindsight_sentence(evaluation, played, lang) or "" for lang in i18n.LANGUAGES}
    )
    return out
