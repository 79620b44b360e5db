"""``fichaflow duel BOT_A BOT_B``: two bots on the same deals, sides swapped, with statistics."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from fichaflow import i18n
from fichaflow.bots.ladder import make_bot
from fichaflow.cli.app import app, fail, lang_of
from fichaflow.cli.score import parse_sets
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.rules import Rules
from fichaflow.match.duplicate import DuelResult, DuelSpec, Tally, arrangements, plan, run_duel
from fichaflow.match.stats import Interval

PROGRESS_FROM = 200
"""Runs of at least this many games show a progress bar (on a terminal)."""


def _text(lang: str, key: str, **params: object) -> str:
    """The duel's words: the catalogue's ``cli.duel.*`` keys."""
    return i18n.text(f"cli.duel.{key}", lang, **params)


def _num(value: float, lang: str, digits: int = 1, sign: bool = False) -> str:
    text = f"{value:+.{digits}f}" if sign else f"{value:.{digits}f}"
    return text.replace(".", _text(lang, "decimal_point"))


def _pct(value: float, lang: str) -> str:
    return _text(lang, "percent", value=_num(100 * value, lang))


def labels(a: str, b: str) -> tuple[str, str]:
    """The two bots' names, told apart when both sides play the same bot."""
    return (f"{a} (A)", f"{b} (B)") if a == b else (a, b)


def _tally_lines(tally: Tally, kind: str, names: tuple[str, str], lang: str) -> list[str]:
    t = partial(_text, lang)
    a, b = names
    out = [t(kind, played=tally.played, groups=tally.groups)]
    what = t(f"{kind}_word")
    out.append(
        "  " + t("won", what=what, a=a, wa=tally.won[0], b=b, wb=tally.won[1], none=tally.undecided)
    )
    if tally.share is not None:
        out.append(
            "  "
            + t(
                "share",
                a=a,
                p=_pct(tally.share.estimate, lang),
                lo=_pct(tally.share.low, lang),
                hi=_pct(tally.share.high, lang),
            )
        )
    unit = t("unit_hand" if kind == "hands" else "unit_partida")

    def ci(i: Interval | None) -> str:
        if i is None:
            return t("none")
        return t("ci", lo=_num(i.low, lang), hi=_num(i.high, lang))

    pa, pb = tally.points
    if pa is not None and pb is not None:
        out.append(
            "  "
            + t(
                "points",
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
            + t(
                "diff",
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
    t = partial(_text, lang)
    spec = result.spec
    names = labels(spec.bot_a, spec.bot_b)
    proc = t("proc_one" if result.workers == 1 else "proc_many")
    out = [
        t("title", a=names[0], b=names[1]),
        t("setup", preset=spec.rules.preset, seed=spec.seed, workers=result.workers, proc=proc),
        t("method", n=len(arrangements(spec.rules))),
    ]
    if result.hands is not None:
        out.append(t("method_hands"))
    if result.partidas is not None:
        out.append(t("method_partidas"))
    for kind, tally in (("hands", result.hands), ("partidas", result.partidas)):
        if tally is not None:
            out.append("")
            out.extend(_tally_lines(tally, kind, names, lang))
    out.append("")
    out.append(t("time"))
    for name, timing in zip(names, result.timings, strict=True):
        out.append(
            "  "
            + t(
                "time_line",
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
        TextColumn(_text(lang, "progress")),
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
    with _progress(total, lang) as advance:
        try:
            result = run_duel(spec, hands, partidas, workers, advance)
        except FichaFlowError as exc:
            fail(exc)
    if as_json:
        click.echo(json.dumps(result.to_json(), ensure_ascii=False))
        return
    for line in report(result, lang):
        click.echo(line)
