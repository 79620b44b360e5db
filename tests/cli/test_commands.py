"""The ``fichaflow`` group loads each command's module only when it runs, and knows them all."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import click

import fichaflow.cli
from fichaflow.cli.app import COMMANDS, app


def test_every_command_module_is_listed_under_its_commands_name() -> None:
    for info in pkgutil.iter_modules(fichaflow.cli.__path__):
        importlib.import_module(f"fichaflow.cli.{info.name}")
    defined = {
        name: command.callback.__module__
        for name, command in app.commands.items()
        if command.callback is not None
    }
    assert defined == COMMANDS
    with click.Context(app) as ctx:
        assert app.list_commands(ctx) == sorted(defined)


def test_a_light_command_starts_without_the_search_engine_or_the_server() -> None:
    probe = (
        "import sys\n"
        "from fichaflow.cli import main\n"
        "try:\n"
        "    main(['score', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('fichaflow.search.engine', 'fichaflow.server.service', "
        "'fastapi', 'sqlalchemy') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert "Anota una mano" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "[]"
