"""The torneo record keeps an online partida's record, and the check replays it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from fichaflow.bots.ladder import make_bot
from fichaflow.cli.app import app
from fichaflow.core import record as core_record
from fichaflow.core.errors import FichaFlowError
from fichaflow.match.play import play_partida
from fichaflow.torneo import model
from fichaflow.torneo.check import check
from fichaflow.torneo.duplicate import round_matchpoints
from tests.torneo.kit import AT, make


def test_an_online_partidas_record_replays_to_the_score_entered() -> None:
    torneo = make(2, rounds=1)
    torneo.next_round()
    bots = [make_bot("tirapuntos", seed=s) for s in range(4)]
    played = play_partida(torneo.settings.rules, lambda k: f"en-linea-{k}", bots)
    score = played.partida.scores
    data = core_record.dump(played.partida)
    torneo.enter(1, 1, model.Result(score=(score[0], score[1]), record=data), "servidor", AT)
    assert check(model.loads(model.dumps(torneo))).records == 1
    wrong = model.dump(torneo)
    wrong["log"][0]["score"] = [score[1] + 200, score[0]]
    with pytest.raises(FichaFlowError) as refused:
        check(model.load(wrong))
    assert refused.value.code == "torneo.record_differs"


def test_the_command_line_takes_the_score_from_an_online_partidas_record(tmp_path: Path) -> None:
    torneo = make(2, rounds=1)
    torneo.next_round()
    registro = tmp_path / "registro.json"
    registro.write_text(model.dumps(torneo), encoding="utf-8")
    bots = [make_bot("tirapuntos", seed=s) for s in range(4)]
    played = play_partida(torneo.settings.rules, lambda k: f"cli-{k}", bots)
    partida = tmp_path / "partida.json"
    partida.write_text(core_record.dumps(played.partida), encoding="utf-8")
    done = CliRunner().invoke(
        app, ["torneo", "result", str(registro), "1", "1", "--record", str(partida)]
    )
    assert done.exit_code == 0, done.output
    [entry] = model.loads(registro.read_bytes()).log
    assert entry.result.score == played.partida.scores and entry.result.record is not None
    done = CliRunner().invoke(app, ["torneo", "check", str(registro), "--json"])
    assert json.loads(done.stdout)["records"] == 1
    done = CliRunner().invoke(
        app, ["torneo", "result", str(registro), "1", "1", "100-3", "--record", str(partida)]
    )
    assert done.exit_code == 2 and done.stderr.startswith("Error: Con --record los tantos salen")


def test_a_late_arrival_with_a_name_already_taken_is_refused() -> None:
    torneo = make(4, rounds=2)
    with pytest.raises(FichaFlowError) as refused:
        torneo.register("p2")
    assert refused.value.message() == "Ya hay un inscrito que se llama «p2»"
    assert len(torneo.entrants) == 4


def test_a_bye_in_a_duplicate_round_gets_sixty_percent() -> None:
    torneo = make(5, rounds=1, duplicate=2)
    made = torneo.next_round("semilla")
    [bye] = made.byes
    for table in made.tables:
        torneo.enter(1, table.number, model.Result(deals=((10, 0), (0, 4))), "x", AT)
    points = round_matchpoints(torneo, made, torneo.results())
    assert points[bye] == (0.6 * 4, 4.0)  # 2 tables: 2 a deal, 2 deals
