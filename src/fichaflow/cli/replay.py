"""``fichaflow replay RECORD.json``: check a game record and tell every hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from fichaflow import i18n
from fichaflow.cli.app import app, fail, file_error, lang_of
from fichaflow.core import record
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.explain import explain, seat_names, team_name
from fichaflow.core.partida import Partida


def read_record(path: str) -> Partida:
    """Load and replay a record file; any problem is reported and exits with status 2."""
    try:
        text = Path(path).read_bytes()
    except OSError as exc:
        fail(file_error(path, exc))
    try:
        return record.replay(record.loads(text))
    except FichaFlowError as exc:
        fail(exc)


def partida_json(partida: Partida) -> dict[str, Any]:
    """The result of a replayed partida, as ``replay --json`` prints it."""
    teams = partida.rules.teams
    hands = []
    for played in partida.played:
        out = played.score.to_json(teams)
        out["scores"] = list(played.scores)
        out["leader"] = played.hand.leader
        hands.append(out)
    return {
        "rules": {"preset": partida.rules.preset, **partida.rules.options()},
        "hands": hands,
        "scores": list(partida.scores),
        "winner": partida.winner,
        "over": partida.over,
        "zapato": partida.zapato,
        "chancleta": partida.chancleta,
    }


@app.command()
@click.argument("record_file", metavar="RECORD.json")
@click.option("--json", "as_json", is_flag=True, help="Imprime un solo objeto JSON.")
def replay(record_file: str, as_json: bool) -> None:
    """Reproduce y comprueba un registro de partida, mano por mano."""
    partida = read_record(record_file)
    if as_json:
        click.echo(json.dumps(partida_json(partida), ensure_ascii=False))
        return
    lang = lang_of()
    rules = partida.rules
    names = seat_names(rules, partida.players, lang)

    def say(key: str, **params: object) -> str:
        return i18n.text(f"cli.replay.{key}", lang, **params)

    click.echo(say("rules", preset=rules.preset, target=rules.target))
    for number, played in enumerate(partida.played, 1):
        click.echo("")
        click.echo(say("hand", number=number, leader=names[played.hand.leader]))
        for line in explain(rules, played.score, partida.players, lang):
            click.echo(f"  {line}")
        totals = ", ".join(
            f"{team_name(rules, t, names, lang)} {s}" for t, s in enumerate(played.scores)
        )
        click.echo(f"  {say('score', totals=totals)}")
    click.echo("")
    if partida.winner is None:
        click.echo(say("unfinished"))
        return
    click.echo(say("winner", winner=team_name(rules, partida.winner, names, lang)))
    if partida.zapato:
        click.echo(say("zapato"))
    elif partida.chancleta:
        click.echo(say("chancleta"))
