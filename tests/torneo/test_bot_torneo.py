"""A 16-pair Swiss of 5 rounds where every table is a partida played to the end by bots, through
the rules core (``match.play``, the duel runner's own loop), and the results feed the torneo."""

from __future__ import annotations

from collections import Counter

import pytest

from fichaflow.bots.ladder import make_bot
from fichaflow.match.play import play_partida
from fichaflow.torneo import model
from fichaflow.torneo.check import check
from fichaflow.torneo.pairing import meetings
from fichaflow.torneo.standings import standings
from tests.torneo.kit import AT, make

pytestmark = pytest.mark.slow

LEVELS = ("tirafichas", "tirapuntos", "acuestafichas", "jugador")


def test_a_16_pair_swiss_played_by_bots_to_the_end() -> None:
    torneo = make(16, rounds=5, rules="venezuela")
    level = {e.id: LEVELS[(e.id - 1) % 4] for e in torneo.entrants}
    for _ in range(5):
        made = torneo.next_round()
        assert made.byes == ()
        for table in made.tables:
            names = [level[table.a[0]], level[table.b[0]]] * 2
            bots = [make_bot(name, seed=seat) for seat, name in enumerate(names)]
            seed = f"torneo-{made.number}-{table.number}"

            def seed_for(k: int, s: str = seed) -> str:
                return f"{s}-{k}"

            played = play_partida(torneo.settings.rules, seed_for, bots)
            assert played.winner is not None
            a, b = played.partida.scores
            torneo.enter(made.number, table.number, model.Result(score=(a, b)), "bots", AT)
    assert max(meetings(torneo.rounds).values()) == 1
    seated = Counter(e for r in torneo.rounds for t in r.tables for e in (*t.a, *t.b))
    assert set(seated.values()) == {5}
    report = check(model.loads(model.dumps(torneo)))
    assert report.results == 40
    ranked = standings(torneo)
    assert sum(s.line.won for s in ranked) == sum(s.line.lost for s in ranked) == 40
    # The strongest bots' pairs come out ahead of the weakest on average.
    average = {name: 0.0 for name in LEVELS}
    for s in ranked:
        average[level[s.line.entrant]] += s.position / 4
    assert average["jugador"] < average["tirafichas"]
