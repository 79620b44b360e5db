"""``fichaflow replay RECORD.json``: check a game record and tell every hand."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

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
    es = lang == "es"
    click.echo(f"{'Reglas' if es else 'Rules'}: {rules.preset} · target {rules.target}")
    for number, played in enumerate(partida.played, 1):
        click.echo("")
        leader = names[played.hand.leader]
        click.echo(f"{'Mano' if es else 'Hand'} {number} ({'sale' if es else 'lead'}: {leader})")
        for line in explain(rules, played.score, partida.players, lang):
            click.echo(f"  {line}")
        totals = ", ".join(
            f"{team_name(rules, t, names, lang)} {s}" for t, s in enumerate(played.scores)
        )
        click.echo(f"  {'Tanteo' if es else 'Score'}: {totals}")
    click.echo("")
    if partida.winner is None:
        click.echo("La partida no ha terminado." if es else "The partida is not finished.")
        return
    winner = team_name(rules, partida.winner, names, lang)
    click.echo(f"{'Gana la partida' if es else 'Partida won by'}: {winner}.")
    if partida.zapato:
        click.echo("¡Zapato!" if es else "Zapato!")
    elif partida.chancleta:
        click.echo("¡Chancleta!" if es else "Chancleta!")
