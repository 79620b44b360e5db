"""Round robin: the circle method, and the worked liguilla of docs/torneos.md, whose standings
table the test reads from the page itself."""

from __future__ import annotations

import itertools
import random

import pytest

from fichaflow.core.errors import FichaFlowError
from fichaflow.torneo import model
from fichaflow.torneo.check import check
from fichaflow.torneo.pairing import circle
from fichaflow.torneo.standings import standings
from tests.torneo.kit import AT, EXAMPLES, doc_table, make, play_round


def liguilla() -> model.Torneo:
    return model.loads((EXAMPLES / "liguilla.json").read_bytes())


def test_the_liguilla_standings_are_the_table_the_docs_work_out() -> None:
    torneo = liguilla()
    got = [
        [
            str(s.position),
            torneo.entrant(s.line.entrant).name,
            *(str(v) for v in (s.line.played, s.line.won, s.line.lost)),
            *(str(v) for v in (s.line.points_for, s.line.points_against)),
            f"{s.line.diff:+d}",
        ]
        for s in standings(torneo)
    ]
    assert got == doc_table("liguilla")


def test_the_liguilla_results_are_the_ones_the_docs_list() -> None:
    torneo = liguilla()
    results = torneo.results()
    got = []
    for made in torneo.rounds:
        for table in made.tables:
            score = results[(made.number, table.number)].score
            assert score is not None
            a, b = torneo.entrant(table.a[0]).name, torneo.entrant(table.b[0]).name
            got.append([str(made.number), str(table.number), a, f"{score[0]}-{score[1]}", b])
    assert got == doc_table("liguilla-resultados")


def test_the_liguilla_record_checks_and_keeps_its_correction() -> None:
    torneo = liguilla()
    report = check(torneo)
    assert (report.rounds, report.results, report.corrections) == (5, 15, 1)
    [correction] = torneo.audit()
    assert (correction.round, correction.table) == (5, 3)
    assert correction.before.score == (100, 99) and correction.after.score == (100, 95)
    assert correction.by == "Rosa (árbitra)" and correction.at == "2026-12-05T14:50:00-04:00"
    # Before the correction Inés y Juan had 4 more points of difference: 2nd, not 3rd.
    before = standings(torneo, upto=len(torneo.log) - 1)
    assert [s.line.entrant for s in before][:3] == [1, 5, 4]


@pytest.mark.parametrize("count", range(2, 12))
def test_the_circle_method_pairs_everybody_with_everybody_once(count: int) -> None:
    schedule = circle(count)
    assert len(schedule) == count - 1 + count % 2
    met = []
    for pairs in schedule:
        seated = [e for pair in pairs for e in pair if e is not None]
        assert sorted(seated) == list(range(count))  # everyone once a round (or the descanso)
        met += [frozenset(p) for p in pairs if None not in p]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(range(count), 2)), key=sorted
    )


def test_an_odd_round_robin_gives_each_pair_one_bye() -> None:
    torneo = make(5, pairing="round_robin", rounds=5)
    rng = random.Random(5)
    for _ in range(5):
        play_round(torneo, rng)
    byes = [b for made in torneo.rounds for b in made.byes]
    assert sorted(byes) == [1, 2, 3, 4, 5]
    lines = {s.line.entrant: s.line for s in standings(torneo)}
    assert all(line.byes == 1 and line.played == 5 for line in lines.values())
    check(torneo)


def test_a_withdrawn_pair_leaves_its_scheduled_rivals_a_bye() -> None:
    torneo = make(6, pairing="round_robin")
    play_round(torneo, random.Random(1))
    torneo.withdraw(3)
    made = play_round(torneo, random.Random(2))
    assert all(3 not in (*t.a, *t.b) for t in made.tables)
    assert len(made.byes) == 1 and made.byes[0] != 3
    check(model.load(model.dump(torneo)))


def test_a_round_robin_refuses_late_arrivals_and_more_rounds_than_it_has() -> None:
    torneo = make(6, pairing="round_robin", rounds=5)
    play_round(torneo, random.Random(1))
    with pytest.raises(FichaFlowError) as refused:
        torneo.register("Tarde")
    assert refused.value.code == "torneo.late_fixed_schedule"
    too_long = make(4, pairing="round_robin", rounds=4)
    with pytest.raises(FichaFlowError) as refused:
        too_long.next_round()
    assert refused.value.message() == "Con estos inscritos caben 3 rondas, no 4"
    assert too_long.rounds == []


def test_a_result_that_cannot_be_is_refused_and_changes_nothing() -> None:
    torneo = make(4, pairing="round_robin", rounds=3)
    torneo.next_round()
    for score, code in (((100, 100), "tied_score"), ((90, 80), "short_of_target")):
        with pytest.raises(FichaFlowError) as refused:
            torneo.enter(1, 1, model.Result(score=score), "test", AT)
        assert refused.value.code == f"torneo.{code}"
    with pytest.raises(FichaFlowError):
        torneo.enter(1, 9, model.Result(score=(100, 3)), "test", AT)
    assert torneo.log == []
    with pytest.raises(FichaFlowError) as refused:
        torneo.next_round()
    assert refused.value.code == "torneo.round_open"
    assert len(torneo.rounds) == 1


def test_a_forfeit_scores_as_the_docs_say() -> None:
    torneo = make(4, pairing="round_robin", rounds=3)
    made = torneo.next_round()
    table = made.tables[0]
    torneo.enter(1, 1, model.Result(forfeit="b"), "test", AT)
    lines = {s.line.entrant: s.line for s in standings(torneo)}
    present, absent = lines[table.a[0]], lines[table.b[0]]
    assert (present.won, present.points_for, present.points_against) == (1, 100, 0)
    assert (absent.lost, absent.points_for, absent.points_against) == (1, 0, 100)
