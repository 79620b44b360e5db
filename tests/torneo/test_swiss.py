"""The Swiss system: by the standings, no repeated rivals while avoidable, byes as documented,
late arrivals and withdrawals; and the record re-checks."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from fichaflow.core.errors import FichaFlowError
from fichaflow.torneo import model
from fichaflow.torneo.check import check
from fichaflow.torneo.pairing import meetings, swiss
from fichaflow.torneo.standings import standings
from tests.torneo.kit import AT, doc_table, make, play_round


def test_a_16_pair_swiss_of_5_rounds_never_repeats_rivals() -> None:
    torneo = make(16, rounds=5)
    rng = random.Random(16)
    for _ in range(5):
        made = play_round(torneo, rng)
        seated = sorted(e for t in made.tables for e in (*t.a, *t.b))
        assert seated == list(range(1, 17)) and made.byes == ()  # everyone plays once a round
        assert [t.number for t in made.tables] == list(range(1, 9))
    assert max(meetings(torneo.rounds).values()) == 1
    report = check(model.loads(model.dumps(torneo)))
    assert report.rounds == 5 and report.results == 40


def test_the_worked_swiss_of_the_docs_pairs_and_ranks_as_worked_by_hand() -> None:
    """docs/torneos.md works a 6-pair Swiss of 3 rounds by hand (a rematch avoided in round 2,
    a dead end backed out of in round 3): each round's tables, sides included, are the ones the
    system makes from the standings of its moment, and the final standings are the docs' table."""
    rounds = doc_table("suizo-rondas")
    names = ["Alba y Blas", "Celia y Darío", "Eva y Félix", "Gloria y Héctor"]
    names += ["Irene y Julio", "Karla y Luis"]
    spec = {"name": "Suizo", "rules": "venezuela", "rounds": 3, "pairing": "swiss"}
    torneo = model.create(spec | {"entrants": names})
    for number in (1, 2, 3):
        made = torneo.next_round()
        worked = [row for row in rounds if row[0] == str(number)]
        got = []
        for table, row in zip(made.tables, worked, strict=True):
            a, b = torneo.entrant(table.a[0]).name, torneo.entrant(table.b[0]).name
            got.append([str(number), str(table.number), a, row[3], b])
            left, right = (int(v) for v in row[3].split("-"))
            torneo.enter(number, table.number, model.Result(score=(left, right)), "test", AT)
        assert got == worked
    assert max(meetings(torneo.rounds).values()) == 1
    ranked = [
        [
            str(s.position),
            torneo.entrant(s.line.entrant).name,
            *(str(v) for v in (s.line.played, s.line.won, s.line.lost)),
            *(str(v) for v in (s.line.points_for, s.line.points_against)),
            f"{s.line.diff:+d}",
        ]
        for s in standings(torneo)
    ]
    assert ranked == doc_table("suizo")


def test_each_round_pairs_by_the_standings_of_its_moment() -> None:
    torneo = make(8, rounds=3)
    rng = random.Random(3)
    play_round(torneo, rng)
    ranked = [s.line.entrant for s in standings(torneo)]
    met = meetings(torneo.rounds)
    made = torneo.next_round()
    # The leader meets the best-ranked rival it has not met; the table is table 1.
    rival = next(e for e in ranked[1:] if not met[(ranked[0], e)])
    assert set(made.tables[0].a + made.tables[0].b) == {ranked[0], rival}
    assert max(meetings(torneo.rounds).values()) == 1


def test_an_odd_swiss_gives_the_bye_to_the_lowest_ranked_without_one() -> None:
    torneo = make(7, rounds=6)
    rng = random.Random(7)
    for _ in range(6):
        before = [s.line.entrant for s in standings(torneo)]
        had = {b for r in torneo.rounds for b in r.byes}
        made = play_round(torneo, rng)
        [bye] = made.byes
        assert bye not in had
        assert bye == next(e for e in reversed(before) if e not in had)
    assert len({b for r in torneo.rounds for b in r.byes}) == 6  # nobody had two
    assert max(meetings(torneo.rounds).values()) == 1
    check(torneo)


def test_a_rematch_only_when_no_pairing_avoids_it() -> None:
    # 4 entrants who have met everybody but one: only one repeat-free pairing is left.
    met: Counter[tuple[int, int]] = Counter()
    for x, y in ((1, 2), (3, 4), (1, 3), (2, 4)):
        met[(x, y)] = met[(y, x)] = 1
    pairs, bye = swiss([1, 2, 3, 4], met, Counter())
    assert sorted(map(sorted, pairs)) == [[1, 4], [2, 3]] and bye is None
    # After everybody met everybody, a rematch it must be, still closest-ranked first.
    for x, y in ((1, 4), (2, 3)):
        met[(x, y)] = met[(y, x)] = 1
    pairs, _ = swiss([1, 2, 3, 4], met, Counter())
    assert pairs == [(1, 2), (3, 4)]


def test_a_late_arrival_plays_from_the_next_round_and_a_withdrawal_stops() -> None:
    torneo = make(6, rounds=4)
    rng = random.Random(9)
    play_round(torneo, rng)
    late = torneo.register("Nora y Óscar", ["Nora", "Óscar"])
    assert (late.id, late.joined) == (7, 2)
    torneo.withdraw(2)
    made = play_round(torneo, rng)
    seated = {e for t in made.tables for e in (*t.a, *t.b)} | set(made.byes)
    assert 7 in seated and 2 not in seated
    line = {s.line.entrant: s.line for s in standings(torneo)}[2]
    assert line.played == 1  # still in the standings with what it played
    with pytest.raises(FichaFlowError) as refused:
        torneo.withdraw(2)
    assert refused.value.code == "torneo.already_withdrawn"
    check(model.loads(model.dumps(torneo)))


def test_check_finds_a_pairing_that_is_not_the_systems() -> None:
    torneo = make(8, rounds=2)
    play_round(torneo, random.Random(1))
    data = model.dump(torneo)
    first, second = data["rounds"][0]["tables"][:2]
    first["b"], second["b"] = second["b"], first["b"]
    with pytest.raises(FichaFlowError) as refused:
        check(model.load(data))
    assert (
        refused.value.message() == "Los emparejamientos de la ronda 1 no son los que da el sistema"
    )
