"""The torneo record keeps an online partida's record, and the check replays it."""

from __future__ import annotations

import pytest

from fichaflow.bots.ladder import make_bot
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


def test_a_bye_in_a_duplicate_round_gets_sixty_percent() -> None:
    torneo = make(5, rounds=1, duplicate=2)
    made = torneo.next_round("semilla")
    [bye] = made.byes
    for table in made.tables:
        torneo.enter(1, table.number, model.Result(deals=((10, 0), (0, 4))), "x", AT)
    points = round_matchpoints(torneo, made, torneo.results())
    assert points[bye] == (0.6 * 4, 4.0)  # 2 tables: 2 a deal, 2 deals
