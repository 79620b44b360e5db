"""``fichaflow verify RECORD.json``: check that every hand was dealt from the seed promised."""

from __future__ import annotations

import json
from pathlib import Path

import click

from fichaflow import i18n
from fichaflow.cli.app import app, fail, lang_of
from fichaflow.core import record
from fichaflow.core.errors import FichaFlowError
from fichaflow.server.fairness import verify_record


@app.command()
@click.argument("record_file", metavar="RECORD.json")
@click.option("--json", "as_json", is_flag=True, help="Imprime un solo objeto JSON.")
def verify(record_file: str, as_json: bool) -> None:
    """Comprueba una partida terminada: cada reparto sale de la semilla prometida."""
    try:
        text = Path(record_file).read_bytes()
    except OSError as exc:
        fail(FichaFlowError("cli.file", path=record_file, detail=exc.strerror or str(exc)))
    try:
        checks = verify_record(record.loads(text))
    except FichaFlowError as exc:
        fail(exc)
    if as_json:
        hands = [{"hand": c.number, "commitment": c.commitment, "seed": c.seed} for c in checks]
        click.echo(json.dumps({"ok": True, "hands": hands}))
        return
    lang = lang_of()
    for check in checks:
        commitment = check.commitment[:16]
        click.echo(i18n.text("cli.verify.hand", lang, number=check.number, commitment=commitment))
    click.echo(i18n.text("cli.verify.all", lang, count=len(checks)))
