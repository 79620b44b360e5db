"""``fichaflow play``: a whole partida in the terminal, the person against bots."""

from __future__ import annotations

import sys

import click
from rich.console import Console

from fichaflow.cli.app import app, fail, lang_of
from fichaflow.cli.score import parse_sets
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.rules import DEFAULT_PRESET, Rules
from fichaflow.tui.person import LeaveTable, Person
from fichaflow.tui.screen import ConsolePrompter, Screen
from fichaflow.tui.setup import DEFAULT_BOT, build_table, seat_players

PACE = 0.6
"""Seconds between bot moves on a real terminal, so that a person can follow the play."""


@app.command()
@click.option("--rules", "preset", default=DEFAULT_PRESET, show_default=True, help="Reglamento.")
@click.option("--set", "sets", multiple=True, metavar="OPCIÓN=VALOR", help="Cambia una opción.")
@click.option("--bot", default=DEFAULT_BOT, show_default=True, help="El bot de los otros asientos.")
@click.option(
    "--seat",
    type=int,
    default=0,
    show_default=True,
    help="Tu asiento, contado desde 0 en orden de turno.",
)
@click.option("--seed", default=None, help="Semilla: la misma repite repartos y bots.")
@click.option("--name", default=None, help="Tu nombre en la mesa.")
def play(
    preset: str,
    sets: tuple[str, ...],
    bot: str,
    seat: int,
    seed: str | None,
    name: str | None,
) -> None:
    """Juega una partida en la terminal contra bots."""
    lang = lang_of()
    try:
        rules = Rules.make(preset, **parse_sets(sets))
        seating = seat_players(rules, bot, seat, name, seed, lang)
    except FichaFlowError as error:
        fail(error)
    console = Console(highlight=False)
    interactive = sys.stdin.isatty() and console.is_terminal
    screen = Screen(console, lang, seating.names, seating.labels, PACE if interactive else 0.0)
    person = Person(ConsolePrompter(console, echo=not sys.stdin.isatty()), screen, lang)
    table = build_table(seating, person, screen, screen.thinking)
    screen.intro(seating.notes)
    try:
        table.run()
    except (LeaveTable, EOFError):
        screen.left_table()
    except KeyboardInterrupt:
        screen.left_table()
        sys.exit(130)
