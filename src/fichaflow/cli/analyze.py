"""``fichaflow analyze RECORD.json --seat N``: the Repaso of a seat's decisions, hand by hand."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from fichaflow import i18n
from fichaflow.cli.app import app, fail, lang_of
from fichaflow.cli.replay import read_record
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.explain import seat_names
from fichaflow.core.hand import write_move
from fichaflow.core.tiles import bits, name
from fichaflow.review.evaluate import BEST, MISTAKE, NOISE, MoveValue
from fichaflow.review.hand import (
    DecisionReview,
    HandReview,
    check_seat,
    hand_of,
    review_hand,
)
from fichaflow.review.plain import hindsight_sentence, verdict_sentence
from fichaflow.review.precision import DEFAULT_PRECISION, PRECISIONS

HEAD = "      {move:<14} {points:>14} {win:>7} {hindsight:>14}"
"""The table's heading, laid out over the columns of each move's line."""


def _text(lang: str, key: str, **params: object) -> str:
    """The analysis' words: the catalogue's ``cli.analyze.*`` keys."""
    return i18n.text(f"cli.analyze.{key}", lang, **params)


@app.command()
@click.argument("record_file", metavar="RECORD.json")
@click.option("--seat", type=int, required=True, help="El asiento que se repasa (desde 0).")
@click.option("--hand", "hand_number", type=int, help="Solo esta mano (desde 1); sin ella, todas.")
@click.option(
    "--precision",
    type=click.Choice(list(PRECISIONS)),
    default=DEFAULT_PRECISION,
    show_default=True,
    help="Cuánto trabajo por decisión: fast, normal o deep.",
)
@click.option("--json", "as_json", is_flag=True, help="Imprime un solo objeto JSON.")
def analyze(
    record_file: str, seat: int, hand_number: int | None, precision: str, as_json: bool
) -> None:
    """Repasa las decisiones de un asiento: lo que valía cada jugada posible."""
    partida = read_record(record_file)
    try:
        check_seat(partida.rules, seat)
        every = list(range(1, len(partida.played) + 1)) or [1]
        chosen = every if hand_number is None else [hand_number]
        subjects = [hand_of(partida, n) for n in chosen]
    except FichaFlowError as exc:
        fail(exc)
    level = PRECISIONS[precision]
    lang = lang_of()
    t = partial(_text, lang)
    console = Console(stderr=True)
    reviews: list[HandReview] = []
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    ) as bar:
        for subject in subjects:
            task = bar.add_task(t("progress", hand=subject.number), total=None)

            def tick(done: int, total: int, task: Any = task) -> None:
                bar.update(task, completed=done, total=total)

            reviews.append(review_hand(subject, seat, level, progress=tick))
            bar.remove_task(task)
    if as_json:
        out = {
            "seat": seat,
            "precision": precision,
            "rules": partida.rules.dump(),
            "players": None if partida.players is None else list(partida.players),
            "hands": [r.to_json() for r in reviews],
        }
        click.echo(json.dumps(out, ensure_ascii=False))
        return
    for number, review in enumerate(reviews):
        if number:
            click.echo("")
        for line in hand_lines(review, lang):
            click.echo(line)


def hand_lines(review: HandReview, lang: str) -> list[str]:
    """The review of one hand as text lines."""
    t = partial(_text, lang)
    subject = review.subject
    rules = subject.rules
    names = seat_names(rules, subject.players, lang)
    who = names[review.seat]
    titled = who if subject.players is None else t("who_seat", name=who, seat=review.seat)
    out = [
        t(
            "title",
            hand=subject.number,
            who=titled,
            preset=rules.preset,
            precision=review.precision,
        ),
        t("dealt", who=who, tiles=_tiles(subject.deal.hands[review.seat])),
    ]
    if not review.decisions:
        out.append(t("none", who=who))
        return out
    samples = 0
    for decision in review.decisions:
        out.append("")
        out += decision_lines(decision, review, lang)
        samples = max(samples, decision.evaluation.samples)
    out.append("")
    count, mistakes = len(review.decisions), review.mistakes
    out.append(
        t(
            "summary",
            decisions=count,
            decisions_word=t("decisions_one" if count == 1 else "decisions_many"),
            mistakes=mistakes,
            mistakes_word=t("mistakes_one" if mistakes == 1 else "mistakes_many"),
            lost=_number(review.points_lost),
        )
    )
    out.append(t("legend", samples=samples))
    if subject.rules.teams > 2:
        out.append(t("legend_tres"))
    return out


def decision_lines(decision: DecisionReview, review: HandReview, lang: str) -> list[str]:
    t = partial(_text, lang)
    view = decision.view
    ends = t("lead") if view.left < 0 else t("ends", left=view.left, right=view.right)
    tiles = _tiles(view.tiles)
    played = decision.played_value
    out = [
        t("decision", number=decision.move_number, ends=ends, tiles=tiles),
        "  " + verdict_sentence(decision.evaluation, played, lang),
    ]
    unlike = hindsight_sentence(decision.evaluation, played, lang)
    if unlike is not None:
        out.append("  " + unlike)
    out += [
        HEAD.format(move=t("move"), points=t("points"), win=t("win"), hindsight=t("hindsight")),
    ]
    for rank, value in enumerate(decision.evaluation.moves, 1):
        points = f"{value.points.mean:+.1f} ±{value.points.se:.1f}"
        hindsight = t("unsolved") if value.hindsight is None else f"{value.hindsight:+.0f}"
        mark = _verdict(value, t)
        if value is played:
            mark += f"  {t('you')}"
        out.append(
            f"   {rank:>2} {_move_words(value, lang):<14} {points:>14} "
            f"{value.win.mean * 100:>5.0f} % {hindsight:>14}   {mark}"
        )
    reasons = _reasons(decision, review, lang)
    if reasons:
        out.append(t("why"))
        out += [f"   • {r}" for r in reasons]
    return out


def _reasons(decision: DecisionReview, review: HandReview, lang: str) -> list[str]:
    """The position's facts, then those of the best move and of the move played."""
    subject = review.subject
    rules, names = subject.rules, subject.players
    out = [f.text(rules, names, lang) for f in decision.facts]
    moves = decision.evaluation.moves
    shown: Sequence[int] = sorted({0, [m.move for m in moves].index(decision.played_value.move)})
    for i in shown:
        out += [f.text(rules, names, lang) for f in decision.move_facts[i]]
    return out


def _verdict(value: MoveValue, t: Callable[..., str]) -> str:
    if value.verdict == BEST:
        return t("best")
    cost, se = _number(value.cost.mean), _number(value.cost.se)
    if value.verdict == MISTAKE:
        return t("mistake", cost=cost, se=se)
    if value.cost.mean < 0.05:
        return t("equal")
    if value.cost.mean <= NOISE * value.cost.se:
        return t("good", cost=cost, se=se)
    return t("good_small", cost=cost)


def _move_words(value: MoveValue, lang: str) -> str:
    move = value.move
    if move.end is None:
        return write_move(move)
    t = partial(_text, lang)
    return f"{name(move.tile)} {t(move.end.word)}"


def _number(x: float) -> str:
    return f"{x:.1f}"


def _tiles(mask: int) -> str:
    return " ".join(name(t) for t in bits(mask))
