"""``fichaflow torneo``: run a tournament from a JSON file, for organizers who script.

Each command reads the torneo's file, asks :mod:`fichaflow.torneo` to do one thing, and writes
the file back whole (a new file moved over the old one, so a refusal or a crash never leaves a
half-written record). The clock is read here, not in the torneo package: ``--at`` overrides it.
"""

from __future__ import annotations

import json
import os
import secrets
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table as RichTable

from fichaflow import i18n
from fichaflow.cli.app import app, fail, file_error, lang_of
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.tiles import bits, name
from fichaflow.torneo import model
from fichaflow.torneo.check import check
from fichaflow.torneo.duplicate import leader, round_deals
from fichaflow.torneo.standings import Standing, standing_json, standings

SEED_BYTES = 32


def t(key: str, lang: str, **params: object) -> str:
    return i18n.text(f"cli.torneo.{key}", lang, **params)


def _read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        fail(file_error(path, exc))


def _load(path: str) -> model.Torneo:
    try:
        return model.loads(_read(path))
    except FichaFlowError as exc:
        fail(exc)


def _write(path: str, torneo: model.Torneo) -> None:
    """Write the record whole: a temporary file beside it, then moved over it."""
    target = Path(path)
    text = model.dumps(torneo)
    try:
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".torneo-")
    except OSError as exc:
        fail(file_error(path, exc))
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, target)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        fail(file_error(path, exc))


def _now(at: str | None) -> str:
    return at or datetime.now(UTC).isoformat(timespec="seconds")


def _side_names(torneo: model.Torneo, side: model.Side, lang: str) -> str:
    """A side of a table by its names: a pair's name, or two players'."""
    names = [torneo.entrant(e).name for e in side]
    if len(names) == 1:
        return names[0]
    return i18n.text("torneo.partners", lang, first=names[0], second=names[1])


@app.group()
def torneo() -> None:
    """Torneos: crea uno, empareja cada ronda, anota resultados y saca la clasificación."""


@torneo.command()
@click.argument("spec_file", metavar="TORNEO.json")
@click.option(
    "-o", "--out", "out", required=True, metavar="REGISTRO.json", help="El registro a crear."
)
def create(spec_file: str, out: str) -> None:
    """Crea un torneo a partir de su descripción (nombre, reglas, formato, inscritos)."""
    if Path(out).exists():
        fail(FichaFlowError("cli.torneo.exists", path=out))
    try:
        made = model.create(model.parse_json(_read(spec_file)))
    except FichaFlowError as exc:
        fail(exc)
    _write(out, made)
    lang = lang_of()
    click.echo(t("created", lang, name=made.settings.name, entrants=len(made.entrants), path=out))


@torneo.command()
@click.argument("torneo_file", metavar="REGISTRO.json")
def pair(torneo_file: str) -> None:
    """Empareja la siguiente ronda (la anterior debe estar completa)."""
    record = _load(torneo_file)
    seed = secrets.token_hex(SEED_BYTES) if record.settings.duplicate else None
    try:
        made = record.next_round(seed)
    except FichaFlowError as exc:
        fail(exc)
    _write(torneo_file, record)
    lang = lang_of()
    click.echo(t("round", lang, number=made.number, tables=len(made.tables)))
    for table in made.tables:
        a, b = _side_names(record, table.a, lang), _side_names(record, table.b, lang)
        click.echo(t("table", lang, table=table.number, a=a, b=b))
    for bye in made.byes:
        click.echo(t("bye", lang, name=record.entrant(bye).name))
    if made.commitment:
        click.echo(t("commitment", lang, commitment=made.commitment))


def _parse_score(text: str) -> tuple[int, int]:
    left, sep, right = text.partition("-")
    if not sep or not all(p.strip().isascii() and p.strip().isdigit() for p in (left, right)):
        raise FichaFlowError("cli.torneo.bad_score", text=text)
    return int(left), int(right)


@torneo.command()
@click.argument("torneo_file", metavar="REGISTRO.json")
@click.argument("round_number", metavar="RONDA", type=int)
@click.argument("table", metavar="MESA", type=int)
@click.argument("scores", metavar="TANTOS", nargs=-1)
@click.option("--forfeit", type=click.Choice(["a", "b"]), help="El lado que no se presentó.")
@click.option("--by", "by", default="organizador", show_default=True, help="Quién anota.")
@click.option("--at", "at", help="Cuándo (ISO 8601); por omisión, ahora.")
@click.option("--note", default="", help="Una nota para el historial de cambios.")
@click.option(
    "--record",
    "record_file",
    metavar="PARTIDA.json",
    help="El registro de la partida jugada en línea: los tantos salen de él.",
)
def result(
    torneo_file: str,
    round_number: int,
    table: int,
    scores: tuple[str, ...],
    forfeit: str | None,
    by: str,
    at: str | None,
    note: str,
    record_file: str | None,
) -> None:
    """Anota el resultado de una mesa (200-150; en duplicado, uno por reparto: 25-0 0-30 …).

    Si la mesa ya tenía resultado, es una corrección, y queda en el historial."""
    record = _load(torneo_file)
    try:
        if record_file is not None:
            if scores or forfeit is not None:
                raise FichaFlowError("cli.torneo.record_and_score")
            given = model.from_partida(model.parse_json(_read(record_file)))
        elif forfeit is not None:
            if scores:
                raise FichaFlowError("cli.torneo.forfeit_and_score")
            given = model.Result(forfeit=forfeit)
        elif record.settings.duplicate:
            given = model.Result(deals=tuple(_parse_score(s) for s in scores))
        elif len(scores) == 1:
            given = model.Result(score=_parse_score(scores[0]))
        else:
            raise FichaFlowError("cli.torneo.one_score", found=len(scores))
        had = (round_number, table) in record.results()
        record.enter(round_number, table, given, by, _now(at), note)
    except FichaFlowError as exc:
        fail(exc)
    _write(torneo_file, record)
    key = "corrected" if had else "entered"
    click.echo(t(key, lang_of(), round=round_number, table=table))


@torneo.command()
@click.argument("torneo_file", metavar="REGISTRO.json")
@click.argument("name", metavar="NOMBRE")
@click.option("--player", "players", multiple=True, help="Un jugador de la pareja (dos veces).")
def join(torneo_file: str, name: str, players: tuple[str, ...]) -> None:
    """Inscribe a alguien que llega tarde: juega desde la próxima ronda (solo suizo)."""
    record = _load(torneo_file)
    try:
        entrant = record.register(name, players)
    except FichaFlowError as exc:
        fail(exc)
    _write(torneo_file, record)
    click.echo(t("joined", lang_of(), name=entrant.name, number=entrant.id, round=entrant.joined))


@torneo.command()
@click.argument("torneo_file", metavar="REGISTRO.json")
@click.argument("number", metavar="NÚMERO", type=int)
def withdraw(torneo_file: str, number: int) -> None:
    """Retira a un inscrito: no se le empareja en las rondas que faltan."""
    record = _load(torneo_file)
    try:
        entrant = record.withdraw(number)
    except FichaFlowError as exc:
        fail(exc)
    _write(torneo_file, record)
    click.echo(t("withdrawn", lang_of(), name=entrant.name, round=entrant.withdrawn))


def _print_standings(record: model.Torneo, lines: list[Standing], lang: str) -> None:
    title = t("standings_title", lang, name=record.settings.name, rounds=len(record.rounds))
    table = RichTable(title=title)
    table.add_column("#", justify="right")
    table.add_column(i18n.text("torneo.name", lang))
    for heading in (
        i18n.text("torneo.pj", lang),
        i18n.text("torneo.pg", lang),
        i18n.text("torneo.pp", lang),
        i18n.text("torneo.pf", lang),
        i18n.text("torneo.pc", lang),
        i18n.text("torneo.diff", lang),
    ):
        table.add_column(heading, justify="right")
    if record.settings.duplicate:
        table.add_column(i18n.text("torneo.mp", lang), justify="right")
        table.add_column("%", justify="right")
    for s in lines:
        line = s.line
        row = [
            str(s.position),
            record.entrant(line.entrant).name,
            *(str(v) for v in (line.played, line.won, line.lost)),
            str(line.points_for),
            str(line.points_against),
            f"{line.diff:+d}",
        ]
        if record.settings.duplicate:
            row += [
                f"{line.matchpoints:.1f}",
                "" if line.percent is None else f"{line.percent:.1f}",
            ]
        table.add_row(*row)
    Console(soft_wrap=True).print(table)
    words = {
        "pg": i18n.text("torneo.tiebreak_pg", lang),
        "diff": i18n.text("torneo.tiebreak_diff", lang),
        "pf": i18n.text("torneo.tiebreak_pf", lang),
        "pc": i18n.text("torneo.tiebreak_pc", lang),
        "h2h": i18n.text("torneo.tiebreak_h2h", lang),
        "mp": i18n.text("torneo.tiebreak_mp", lang),
    }
    order = ", ".join(words[k] for k in record.settings.tiebreaks)
    click.echo(t("tiebreaks", lang, order=order))


@torneo.command()
@click.argument("torneo_file", metavar="REGISTRO.json")
@click.argument("round_number", metavar="RONDA", type=int)
def deals(torneo_file: str, round_number: int) -> None:
    """Imprime los repartos de una ronda duplicada, para repartirlos en mesas físicas."""
    record = _load(torneo_file)
    try:
        made = record.round(round_number)
        if not record.settings.duplicate:
            raise FichaFlowError("cli.torneo.not_duplicate")
        if made.seed is None:
            raise FichaFlowError("cli.torneo.no_seed", round=round_number)
    except FichaFlowError as exc:
        fail(exc)
    lang = lang_of()
    count = record.settings.duplicate_deals
    for number, deal in enumerate(round_deals(made.seed, count), 1):
        click.echo(t("deal", lang, number=number, round=round_number, seat=leader(number)))
        for seat, hand in enumerate(deal.hands):
            tiles = " ".join(name(tile) for tile in bits(hand))
            side = "a" if seat % 2 == 0 else "b"
            click.echo(t("deal_seat", lang, seat=seat, side=side, tiles=tiles))


@torneo.command()
@click.argument("torneo_file", metavar="REGISTRO.json")
@click.option("--public", is_flag=True, help="Sin las semillas de las rondas que se están jugando.")
def export(torneo_file: str, public: bool) -> None:
    """Imprime el registro en JSON; con --public, listo para publicar durante el torneo."""
    record = _load(torneo_file)
    click.echo(model.dumps(record, public=public), nl=False)


@torneo.command("standings")
@click.argument("torneo_file", metavar="REGISTRO.json")
@click.option("--json", "as_json", is_flag=True, help="Imprime un solo objeto JSON.")
def show_standings(torneo_file: str, as_json: bool) -> None:
    """Imprime la clasificación: PJ, PG, PP, PF, PC y diferencia, con los desempates."""
    record = _load(torneo_file)
    lines = standings(record)
    if as_json:
        click.echo(json.dumps([standing_json(record, s) for s in lines], ensure_ascii=False))
        return
    _print_standings(record, lines, lang_of())


@torneo.command("check")
@click.argument("torneo_file", metavar="REGISTRO.json")
@click.option("--json", "as_json", is_flag=True, help="Imprime un solo objeto JSON.")
def check_command(torneo_file: str, as_json: bool) -> None:
    """Comprueba un registro: emparejamientos, semillas, partidas en línea y clasificación."""
    record = _load(torneo_file)
    try:
        report = check(record)
    except FichaFlowError as exc:
        fail(exc)
    if as_json:
        data = {
            "ok": True,
            "rounds": report.rounds,
            "results": report.results,
            "corrections": report.corrections,
            "seeds": report.seeds,
            "records": report.records,
            "standings": [standing_json(record, s) for s in report.standings],
        }
        click.echo(json.dumps(data, ensure_ascii=False))
        return
    lang = lang_of()
    click.echo(
        t(
            "checked",
            lang,
            rounds=report.rounds,
            results=report.results,
            corrections=report.corrections,
            seeds=report.seeds,
            records=report.records,
        )
    )
    for c in record.audit():
        before, after = _describe(c.before, lang), _describe(c.after, lang)
        click.echo(
            t(
                "audit",
                lang,
                round=c.round,
                table=c.table,
                by=c.by,
                at=c.at,
                before=before,
                after=after,
            )
        )


def _describe(result: model.Result, lang: str) -> str:
    """A result in a few words, for the audit lines."""
    if result.forfeit is not None:
        return t("forfeit_word", lang, side=result.forfeit)
    if result.deals is not None:
        return " ".join(f"{a}-{b}" for a, b in result.deals)
    assert result.score is not None
    return f"{result.score[0]}-{result.score[1]}"
