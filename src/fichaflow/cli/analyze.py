"""``fichaflow analyze RECORD.json --seat N``: the Repaso of a seat's decisions, hand by hand."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from fichaflow.cli.app import app, fail, lang_of
from fichaflow.cli.replay import read_record
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.explain import seat_names
from fichaflow.core.tiles import bits, name
from fichaflow.review.evaluate import BEST, MISTAKE, NOISE, MoveValue
from fichaflow.review.hand import (
    DecisionReview,
    HandReview,
    check_seat,
    hand_of,
    move_text,
    review_hand,
)
from fichaflow.review.precision import DEFAULT_PRECISION, PRECISIONS

TEXT = {
    "es": {
        "title": "Repaso · mano {hand} · {who} · {preset} · precisión {precision}",
        "who_seat": "{name} (asiento {seat})",
        "dealt": "{who} recibió: {tiles}",
        "none": "En esta mano {who} no tuvo que elegir: todas sus jugadas eran obligadas.",
        "decision": "Jugada {number} · {ends} · en la mano: {tiles}",
        "lead": "sale",
        "ends": "puntas {left} y {right}",
        "played": "Jugaste {move} — {verdict}",
        "played_lead": "el {tile}",
        "played_end": "el {tile} por la {end}",
        "head": "      {move:<14} {points:>14} {win:>7} {hindsight:>14}",
        "move": "jugada",
        "points": "puntos",
        "win": "ganar",
        "hindsight": "retrospectiva",
        "best": "la mejor",
        "good": "buena: −{cost} ± {se}, dentro del ruido",
        "good_small": "buena: pierde {cost}, menos de 1 punto",
        "equal": "igual de buena",
        "mistake": "error: cuesta {cost} puntos (± {se})",
        "you": "← jugaste",
        "why": "  Por qué:",
        "left": "izquierda",
        "right": "derecha",
        "summary": "Resumen: {decisions} {decisions_word}, {mistakes} {mistakes_word}; sus "
        "jugadas perdieron en total {lost} puntos esperados frente a las mejores.",
        "decisions_one": "decisión",
        "decisions_many": "decisiones",
        "mistakes_one": "error",
        "mistakes_many": "errores",
        "legend": "Puntos: lo que su lado puede esperar de la mano menos lo que esperan los "
        "rivales, con lo que el asiento veía ({samples} repartos de las fichas ocultas). "
        "Retrospectiva: el valor exacto viendo todas las manos.",
        "unsolved": "—",
        "progress": "Analizando la mano {hand}",
    },
    "en": {
        "title": "Review · hand {hand} · {who} · {preset} · precision {precision}",
        "who_seat": "{name} (seat {seat})",
        "dealt": "{who} was dealt: {tiles}",
        "none": "In this hand {who} had no choice to make: every move was forced.",
        "decision": "Move {number} · {ends} · in hand: {tiles}",
        "lead": "leads",
        "ends": "ends {left} and {right}",
        "played": "You played {move} — {verdict}",
        "played_lead": "the {tile}",
        "played_end": "the {tile} on the {end}",
        "head": "      {move:<14} {points:>14} {win:>7} {hindsight:>14}",
        "move": "move",
        "points": "points",
        "win": "win",
        "hindsight": "hindsight",
        "best": "the best",
        "good": "good: −{cost} ± {se}, within noise",
        "good_small": "good: loses {cost}, less than 1 point",
        "equal": "just as good",
        "mistake": "mistake: costs {cost} points (± {se})",
        "you": "← played",
        "why": "  Why:",
        "left": "left",
        "right": "right",
        "summary": "Summary: {decisions} {decisions_word}, {mistakes} {mistakes_word}; the "
        "moves played lost {lost} expected points in all against the best ones.",
        "decisions_one": "decision",
        "decisions_many": "decisions",
        "mistakes_one": "mistake",
        "mistakes_many": "mistakes",
        "legend": "Points: what the side can expect from the hand minus what the rivals can, "
        "from what the seat could see ({samples} deals of the hidden tiles). Hindsight: the exact "
        "value with every hand visible.",
        "unsolved": "—",
        "progress": "Analysing hand {hand}",
    },
}


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
    t = TEXT[lang]
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
            task = bar.add_task(t["progress"].format(hand=subject.number), total=None)

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
    t = TEXT[lang]
    subject = review.subject
    rules = subject.rules
    names = seat_names(rules, subject.players, lang)
    who = names[review.seat]
    titled = who if subject.players is None else t["who_seat"].format(name=who, seat=review.seat)
    out = [
        t["title"].format(
            hand=subject.number,
            who=titled,
            preset=rules.preset,
            precision=review.precision,
        ),
        t["dealt"].format(who=who, tiles=_tiles(subject.deal.hands[review.seat])),
    ]
    if not review.decisions:
        out.append(t["none"].format(who=who))
        return out
    samples = 0
    for decision in review.decisions:
        out.append("")
        out += decision_lines(decision, review, lang)
        samples = max(samples, decision.evaluation.samples)
    out.append("")
    count, mistakes = len(review.decisions), review.mistakes
    out.append(
        t["summary"].format(
            decisions=count,
            decisions_word=t["decisions_one" if count == 1 else "decisions_many"],
            mistakes=mistakes,
            mistakes_word=t["mistakes_one" if mistakes == 1 else "mistakes_many"],
            lost=_number(review.points_lost),
        )
    )
    out.append(t["legend"].format(samples=samples))
    return out


def decision_lines(decision: DecisionReview, review: HandReview, lang: str) -> list[str]:
    t = TEXT[lang]
    view = decision.view
    ends = t["lead"] if view.left < 0 else t["ends"].format(left=view.left, right=view.right)
    tiles = _tiles(view.tiles)
    played = decision.played_value
    out = [
        t["decision"].format(number=decision.move_number, ends=ends, tiles=tiles),
        "  " + t["played"].format(move=_move_sentence(played, lang), verdict=_verdict(played, t)),
        t["head"].format(
            move=t["move"], points=t["points"], win=t["win"], hindsight=t["hindsight"]
        ),
    ]
    for rank, value in enumerate(decision.evaluation.moves, 1):
        points = f"{value.points.mean:+.1f} ±{value.points.se:.1f}"
        hindsight = t["unsolved"] if value.hindsight is None else f"{value.hindsight:+.0f}"
        mark = _verdict(value, t)
        if value is played:
            mark += f"  {t['you']}"
        out.append(
            f"   {rank:>2} {_move_words(value, lang):<14} {points:>14} "
            f"{value.win.mean * 100:>5.0f} % {hindsight:>14}   {mark}"
        )
    reasons = _reasons(decision, review, lang)
    if reasons:
        out.append(t["why"])
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


def _verdict(value: MoveValue, t: dict[str, str]) -> str:
    if value.verdict == BEST:
        return t["best"]
    cost, se = _number(value.cost.mean), _number(value.cost.se)
    if value.verdict == MISTAKE:
        return t["mistake"].format(cost=cost, se=se)
    if value.cost.mean < 0.05:
        return t["equal"]
    if value.cost.mean <= NOISE * value.cost.se:
        return t["good"].format(cost=cost, se=se)
    return t["good_small"].format(cost=cost)


def _move_words(value: MoveValue, lang: str) -> str:
    move = value.move
    if move.end is None:
        return move_text(move)
    t = TEXT[lang]
    return f"{name(move.tile)} {t[move.end.word]}"


def _move_sentence(value: MoveValue, lang: str) -> str:
    move = value.move
    t = TEXT[lang]
    if move.end is None:
        return t["played_lead"].format(tile=move_text(move))
    return t["played_end"].format(tile=name(move.tile), end=t[move.end.word])


def _number(x: float) -> str:
    return f"{x:.1f}"


def _tiles(mask: int) -> str:
    return " ".join(name(t) for t in bits(mask))
