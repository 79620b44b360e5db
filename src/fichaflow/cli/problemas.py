"""``fichaflow problemas mine|mine-server|check``: mine puzzles from seeded bot partidas or from
the partidas a server kept (those every player allowed), and check a set."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from fichaflow import i18n
from fichaflow.cli.app import app, fail, file_error, lang_of
from fichaflow.core.errors import FichaFlowError
from fichaflow.problemas import parse_set
from fichaflow.problemas.mine import CHECKS, Tally, check, mine, mine_record
from fichaflow.server.miner import DB_ENV

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from fichaflow.cli.server_partidas import Eligible

MINER_NICENESS = 10
"""How much a run started by a server lowers its own CPU priority (``nice``)."""


@app.group()
def problemas() -> None:
    """Problemas: minar posiciones de partidas de bots y comprobarlas con el solucionador exacto."""


@problemas.command("mine")
@click.option("--seed", type=int, default=1, show_default=True, help="Semilla de las partidas.")
@click.option("--count", type=click.IntRange(0, 100_000), default=100, show_default=True)
@click.option(
    "--seats",
    type=click.IntRange(0, 100_000),
    default=0,
    show_default=True,
    help="Problemas de asiento (solo lo que sabe el asiento) que añadir después.",
)
@click.option("--out", "out", required=True, help="Archivo JSON lines donde escribirlos.")
def mine_command(seed: int, count: int, seats: int, out: str) -> None:
    """Juega partidas de bots desde la semilla y escribe los problemas que pasan cada control:
    ``--count`` con todas las fichas a la vista, y luego ``--seats`` de asiento."""
    tally = Tally()
    lines = [p.dumps() + "\n" for p in mine(seed, count, tally)]
    if seats:
        lines += [p.dumps() + "\n" for p in mine(seed, seats, tally, kind="seat")]
    try:
        Path(out).write_text("".join(lines), encoding="utf-8")
    except OSError as exc:
        fail(file_error(out, exc))
    lang = lang_of()
    click.echo(
        i18n.text(
            "cli.problemas.mined", lang, count=tally.made, path=out, positions=tally.positions
        )
    )
    _echo_tally(tally, lang)


def _echo_tally(tally: Tally, lang: str) -> None:
    for name in CHECKS:
        click.echo(
            i18n.text("cli.problemas.rejected", lang, check=name, count=tally.rejected[name])
        )


@problemas.command("mine-server")
@click.option(
    "--db",
    "db_url",
    required=True,
    envvar=DB_ENV,
    metavar="URL",
    help="La base de datos del servidor (SQLAlchemy), la misma de fichaflow serve --db "
    "(o la variable de entorno FICHAFLOW_DB).",
)
@click.option("--parent", type=int, default=None, hidden=True)
def mine_server_command(db_url: str, parent: int | None) -> None:
    """Mina las partidas terminadas del servidor que todos sus jugadores permitieron (y las de
    solo bots) y guarda en la base de datos los problemas nuevos, de los dos tipos, con los
    mismos controles; el entrenador los sirve junto a los del paquete. Una sola ejecución a la
    vez por base de datos: si otra está minando la misma, esta no hace nada."""
    from fichaflow.cli.server_partidas import mining_lock, open_server_db

    if parent is not None:
        # started by a server (fichaflow serve --mine-problemas-every): it gives way to the
        # server's own work, and ends with the server
        from fichaflow.http.workers import watch_parent

        watch_parent(parent)
        os.nice(MINER_NICENESS)
    engine = open_server_db(db_url)
    lang = lang_of()
    tally = Tally()
    try:
        with mining_lock(engine) as mine_now:
            if not mine_now:
                click.echo(i18n.text("cli.problemas.server_busy", lang))
                return
            found, added = _mine_server(engine, tally)
    finally:
        engine.dispose()
    click.echo(
        i18n.text(
            "cli.problemas.server_mined",
            lang,
            count=added,
            partidas=len(found.partidas),
            positions=tally.positions,
            skipped=found.skipped,
        )
    )
    _echo_tally(tally, lang)


def _mine_server(engine: Engine, tally: Tally) -> tuple[Eligible, int]:
    """Mine every eligible partida not mined yet; what was found, and how many were kept."""
    from fichaflow.cli.server_partidas import Eligible, record_of
    from fichaflow.problemas import load_set
    from fichaflow.trainer import mined

    shipped = {p.id for p in load_set()}
    found = Eligible.read(engine, mined.mined_partidas(engine))
    added = 0
    for mesa, number, accounts in found.partidas:
        record = record_of(engine, mesa, number)
        if record is None:
            continue
        source = {"mesa": mesa, "partida": number}
        made = [p for p in mine_record(record, source, tally) if p.id not in shipped]
        added += mined.keep(engine, mesa, number, accounts, made)
    return found, added


@problemas.command("check")
@click.argument("set_file", metavar="FILE")
def check_command(set_file: str) -> None:
    """Vuelve a resolver cada problema y comprueba su respuesta y su margen."""
    try:
        text = Path(set_file).read_text(encoding="utf-8")
    except OSError as exc:
        fail(file_error(set_file, exc))
    except UnicodeDecodeError:
        fail(FichaFlowError("problemas.bad_puzzle", detail=set_file))
    try:
        puzzles = parse_set(text)
    except ValueError as exc:
        fail(FichaFlowError("problemas.bad_puzzle", detail=str(exc)))
    except FichaFlowError as exc:
        fail(exc)
    lang = lang_of()
    bad = 0
    for puzzle in puzzles:
        reason = check(puzzle)
        if reason:
            bad += 1
            click.echo(i18n.text("cli.problemas.failed", lang, id=puzzle.id, check=reason))
    if bad:
        sys.exit(1)
    click.echo(i18n.text("cli.problemas.checked", lang, count=len(puzzles)))
