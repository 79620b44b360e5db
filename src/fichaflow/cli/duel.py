"""``fichaflow duel BOT_A BOT_B``: two bots on the same deals, sides swapped, with statistics."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from fichaflow.bots.base import make_bot
from fichaflow.cli.app import app, fail, lang_of
from fichaflow.cli.score import parse_sets
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.rules import Rules
from fichaflow.match.duplicate import DuelResult, DuelSpec, Tally, arrangements, plan, run_duel
from fichaflow.match.stats import Interval

PROGRESS_FROM = 200
"""Runs of at least this many games show a progress bar (on a terminal)."""

TEXT: dict[str, dict[str, str]] = {
    "es": {
        "title": "Duelo duplicado: {a} contra {b}",
        "setup": "Reglamento {preset} · semilla {seed} · {workers} {proc}",
        "proc_one": "proceso",
        "proc_many": "procesos",
        "method": "Cada reparto se juega {n} veces, con los bots en asientos cambiados.",
        "method_hands": "En las manos sueltas sale cualquier ficha y la salida rota por reparto.",
        "method_partidas": "Las partidas siguen el reglamento, primera salida incluida.",
        "hands": "Manos: {played} jugadas ({groups} repartos)",
        "partidas": "Partidas: {played} jugadas ({groups} series de repartos)",
        "won": "{what} ganadas: {a} {wa}, {b} {wb}, sin ganador {none}",
        "hands_word": "Manos",
        "partidas_word": "Partidas",
        "share": "{a} gana el {p} de las decididas (IC 95 %: {lo}–{hi})",
        "points": "Puntos por {unit}: {a} {pa} ({ia}) · {b} {pb} ({ib})",
        "unit_hand": "mano",
        "unit_partida": "partida",
        "diff": "Diferencia por {unit} ({a} menos {b}): {d} (IC 95 %: {lo}–{hi})",
        "ci": "IC 95 %: {lo}–{hi}",
        "time": "Tiempo por decisión:",
        "time_line": "{name}: mediana {median} ms · percentil 99: {p99} ms ({n} decisiones)",
        "none": "sin datos",
        "progress": "Jugando",
    },
    "en": {
        "title": "Duplicate duel: {a} against {b}",
        "setup": "Preset {preset} · seed {seed} · {workers} {proc}",
        "proc_one": "process",
        "proc_many": "processes",
        "method": "Every deal is played {n} times, with the bots' seats swapped.",
        "method_hands": "In single hands any tile may lead, and the lead rotates deal by deal.",
        "method_partidas": "Partidas follow the preset, first salida included.",
        "hands": "Hands: {played} played ({groups} deals)",
        "partidas": "Partidas: {played} played ({groups} deal sequences)",
        "won": "{what} won: {a} {wa}, {b} {wb}, no winner {none}",
        "hands_word": "Hands",
        "partidas_word": "Partidas",
        "share": "{a} wins {p} of the decided ones (95% CI: {lo}–{hi})",
        "points": "Points per {unit}: {a} {pa} ({ia}) · {b} {pb} ({ib})",
        "unit_hand": "hand",
        "unit_partida": "partida",
        "diff": "Difference per {unit} ({a} minus {b}): {d} (95% CI: {lo}–{hi})",
        "ci": "95% CI: {lo}–{hi}",
        "time": "Time per decision:",
        "time_line": "{name}: median {median} ms · 99th percentile: {p99} ms ({n} decisions)",
        "none": "no data",
        "progress": "Playing",
    },
}


def _num(value: float, lang: str, digits: int = 1, sign: bool = False) -> str:
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    return text.replace(".", ",") if lang == "es" else text


def _pct(value: float, lang: str) -> str:
    return f"{_num(100 * value, lang)} %" if lang == "es" else f"{_num(100 * value, lang)}%"


def labels(a: str, b: str) -> tuple[str, str]:
    """The two bots' names, told apart when both sides play the same bot."""
    return (f"{a} (A)", f"{b} (B)") if a == b else (a, b)


def _tally_lines(tally: Tally, kind: str, names: tuple[str, str], lang: str) -> list[str]:
    t = TEXT[lang]
    a, b = names
    out = [t[kind].format(played=tally.played, groups=tally.groups)]
    what = t[f"{kind}_word"]
    out.append(
        "  "
        + t["won"].format(
            what=what, a=a, wa=tally.won[0], b=b, wb=tally.won[1], none=tally.undecided
        )
    )
    if tally.share is not None:
        out.append(
            "  "
            + t["share"].format(
                a=a,
                p=_pct(tally.share.estimate, lang),
                lo=_pct(tally.share.low, lang),
                hi=_pct(tally.share.high, lang),
            )
        )
    unit = t["unit_hand" if kind == "hands" else "unit_partida"]

    def ci(i: Interval | None) -> str:
        if i is None:
            return t["none"]
        return t["ci"].format(lo=_num(i.low, lang), hi=_num(i.high, lang))

    pa, pb = tally.points
    if pa is not None and pb is not None:
        out.append(
            "  "
            + t["points"].format(
                unit=unit,
                a=a,
                pa=_num(pa.estimate, lang),
                ia=ci(pa),
                b=b,
                pb=_num(pb.estimate, lang),
                ib=ci(pb),
            )
        )
    if tally.difference is not None:
        d = tally.difference
        out.append(
            "  "
            + t["diff"].format(
                unit=unit,
                a=a,
                b=b,
                d=_num(d.estimate, lang, sign=True),
                lo=_num(d.low, lang),
                hi=_num(d.high, lang),
            )
        )
    return out


def report(result: DuelResult, lang: str = "es") -> list[str]:
    """The duel in readable lines (Spanish unless ``lang`` is ``en``)."""
    t = TEXT.get(lang, TEXT["es"])
    lang = lang if lang in TEXT else "es"
    spec = result.spec
    names = labels(spec.bot_a, spec.bot_b)
    proc = t["proc_one" if result.workers == 1 else "proc_many"]
    out = [
        t["title"].format(a=names[0], b=names[1]),
        t["setup"].format(
            preset=spec.rules.preset, seed=spec.seed, workers=result.workers, proc=proc
        ),
        t["method"].format(n=len(arrangements(spec.rules))),
    ]
    if result.hands is not None:
        out.append(t["method_hands"])
    if result.partidas is not None:
        out.append(t["method_partidas"])
    for kind, tally in (("hands", result.hands), ("partidas", result.partidas)):
        if tally is not None:
            out.append("")
            out.extend(_tally_lines(tally, kind, names, lang))
    out.append("")
    out.append(t["time"])
    for name, timing in zip(names, result.timings, strict=True):
        out.append(
            "  "
            + t["time_line"].format(
                name=name,
                median=_num(timing.median_ms, lang, 3),
                p99=_num(timing.p99_ms, lang, 3),
                n=timing.decisions,
            )
        )
    return out


@contextmanager
def _progress(total: int, lang: str) -> Iterator[Callable[[int], None] | None]:
    """A rich progress bar on stderr for long runs on a terminal (yields what advances it);
    otherwise nothing."""
    if total < PROGRESS_FROM or not sys.stderr.isatty():
        yield None
        return
    console = Console(stderr=True)
    columns = (
        TextColumn(TEXT[lang]["progress"]),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as progress:
        task = progress.add_task("duel", total=total)
        yield lambda games: progress.advance(task, games)


@app.command()
@click.argument("bot_a")
@click.argument("bot_b")
@click.option("--rules", "preset", default="venezuela", show_default=True, help="Reglamento.")
@click.option("--set", "sets", multiple=True, metavar="OPCIÓN=VALOR", help="Cambia una opción.")
@click.option(
    "--hands", type=click.IntRange(min=0), default=200, show_default=True, help="Manos a jugar."
)
@click.option("--seed", type=int, default=0, show_default=True, help="Semilla de los repartos.")
@click.option(
    "--workers", type=click.IntRange(1, 64), default=1, show_default=True, help="Procesos."
)
@click.option(
    "--partidas", type=click.IntRange(min=0), default=0, help="Partidas enteras a jugar también."
)
@click.option("--json", "as_json", is_flag=True, help="Imprime un solo objeto JSON.")
def duel(
    bot_a: str,
    bot_b: str,
    preset: str,
    sets: tuple[str, ...],
    hands: int,
    seed: int,
    workers: int,
    partidas: int,
    as_json: bool,
) -> None:
    """Duelo duplicado entre dos bots: los mismos repartos con los lados cambiados."""
    try:
        rules = Rules.make(preset, **parse_sets(sets))
        make_bot(bot_a)
        make_bot(bot_b)
    except FichaFlowError as exc:
        fail(exc)
    spec = DuelSpec(bot_a, bot_b, rules, seed)
    lang = lang_of()
    per = len(arrangements(rules))
    total = per * len(plan(spec, hands, partidas))
    with _progress(total, lang if lang in TEXT else "es") as advance:
        try:
            result = run_duel(spec, hands, partidas, workers, advance)
        except FichaFlowError as exc:
            fail(exc)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    for line in report(result, lang):
        click.echo(line)
