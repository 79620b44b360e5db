"""Properties of the pairings and the standings, over random torneos (hypothesis)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from fichaflow.torneo import model
from fichaflow.torneo.check import check
from fichaflow.torneo.pairing import perfect_pairing, rotation
from fichaflow.torneo.standings import Line, standings
from tests.torneo.kit import AT, make, random_score


def _all_pairings(items: list[int]) -> list[list[tuple[int, int]]]:
    if not items:
        return [[]]
    first, out = items[0], []
    for k in range(1, len(items)):
        rest = items[1:k] + items[k + 1 :]
        out += [[(first, items[k]), *p] for p in _all_pairings(rest)]
    return out


@settings(max_examples=150, deadline=None)
@given(
    count=st.integers(1, 5).map(lambda n: 2 * n),
    edges=st.sets(st.tuples(st.integers(0, 9), st.integers(0, 9))),
)
def test_the_search_finds_a_repeat_free_pairing_exactly_when_one_exists(
    count: int, edges: set[tuple[int, int]]
) -> None:
    met: Counter[tuple[int, int]] = Counter()
    for x, y in edges:
        if x != y and x < count and y < count:
            met[(x, y)] = met[(y, x)] = 1
    order = list(range(count))
    found = perfect_pairing(order, lambda x, y: not met[(x, y)])
    valid = [p for p in _all_pairings(order) if all(not met[pair] for pair in p)]
    assert (found is not None) == bool(valid)
    if found is not None:
        assert sorted(e for p in found for e in p) == order
        # The closest-ranked first, top down: the first valid pairing in that order.
        assert found == valid[0]


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 24), rounds=st.integers(1, 8), seed=st.integers(0, 10**6))
def test_every_swiss_round_seats_everybody_once_or_gives_one_bye(
    count: int, rounds: int, seed: int
) -> None:
    torneo = make(count, rounds=rounds)
    rng = random.Random(seed)
    for _ in range(rounds):
        made = torneo.next_round()
        seated = [e for t in made.tables for e in (*t.a, *t.b)] + list(made.byes)
        assert sorted(seated) == list(range(1, count + 1))
        assert len(made.byes) == count % 2
        for table in made.tables:
            score = random_score(rng)
            torneo.enter(made.number, table.number, model.Result(score=score), "x", AT)
    byes = Counter(b for r in torneo.rounds for b in r.byes)
    assert (
        max(byes.values(), default=0) - min((byes[e] for e in range(1, count + 1)), default=0) <= 1
    )
    if rounds < count // 2:  # a repeat-free pairing exists: none was repeated
        met = Counter(frozenset((*t.a, *t.b)) for r in torneo.rounds for t in r.tables)
        assert max(met.values()) == 1


def _random_torneo(seed: int, count: int, rounds: int, tiebreaks: list[str]) -> model.Torneo:
    torneo = make(count, rounds=rounds, tiebreaks=tiebreaks)
    rng = random.Random(seed)
    for _ in range(rounds):
        made = torneo.next_round()
        for table in made.tables:
            kind = rng.random()
            if kind < 0.1:
                result = model.Result(forfeit=rng.choice("ab"))
            else:
                # Few distinct scores, so that ties on every figure happen.
                a, b = rng.choice([(100, 50), (100, 80), (50, 100), (80, 100)])
                result = model.Result(score=(a, b))
            torneo.enter(made.number, table.number, result, "x", AT)
    return torneo


TIEBREAK_LISTS = st.permutations(["pg", "diff", "pf", "pc", "h2h"]).flatmap(
    lambda keys: st.integers(1, 5).map(lambda n: list(keys[:n]))
)


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    count=st.integers(2, 14),
    rounds=st.integers(1, 5),
    tiebreaks=TIEBREAK_LISTS,
)
def test_standings_are_a_permutation_in_the_tie_break_order(
    seed: int, count: int, rounds: int, tiebreaks: list[str]
) -> None:
    torneo = _random_torneo(seed, count, rounds, tiebreaks)
    table = standings(torneo)
    assert [s.position for s in table] == list(range(1, count + 1))
    assert sorted(s.line.entrant for s in table) == list(range(1, count + 1))

    def figures(line: Line) -> tuple[int, ...]:
        values = {
            "pg": line.won,
            "diff": line.diff,
            "pf": line.points_for,
            "pc": -line.points_against,
        }
        keys = list(itertools.takewhile(lambda k: k != "h2h", tiebreaks))
        return tuple(values[k] for k in keys)

    keys = [figures(s.line) for s in table]
    assert keys == sorted(keys, reverse=True)  # each figure before h2h, best first, in order
    if "h2h" not in tiebreaks:  # ties on every figure keep registration order
        for x, y in itertools.pairwise(table):
            if figures(x.line) == figures(y.line):
                assert x.line.entrant < y.line.entrant
    for s in table:
        line = s.line
        assert line.won + line.lost <= line.played
        assert (
            line.played
            == sum(1 for r in torneo.rounds for t in r.tables if line.entrant in (*t.a, *t.b))
            + line.byes
        )


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), count=st.integers(2, 10), corrections=st.integers(0, 8))
def test_corrections_change_the_standings_only_through_the_audit_trail(
    seed: int, count: int, corrections: int
) -> None:
    torneo = _random_torneo(seed, count, 2, ["pg", "diff", "pf"])
    rng = random.Random(seed + 1)
    tables = [(r.number, t.number) for r in torneo.rounds for t in r.tables]
    first = standings(torneo)
    for k in range(corrections):
        where = rng.choice(tables)
        result = model.Result(score=rng.choice([(100, 0), (0, 100), (100, 99)]))
        had = torneo.results()[where]
        torneo.enter(*where, result, f"árbitro {k}", f"2026-12-05T12:{k:02d}:00Z")
        assert torneo.audit()[-1].before is had  # the line says what it replaced
    audit = torneo.audit()
    assert len(audit) == corrections
    tail = torneo.log[len(torneo.log) - corrections :]
    assert [(c.by, c.after) for c in audit] == [(e.by, e.result) for e in tail]
    # The standings are those of a torneo whose tables had only their last result from the start.
    clean = model.copy(torneo)
    clean.log = list({(e.round, e.table): e for e in torneo.log}.values())
    as_lines = [(s.line.entrant, s.line.won, s.line.points_for) for s in standings(torneo)]
    assert as_lines == [(s.line.entrant, s.line.won, s.line.points_for) for s in standings(clean)]
    # Without its audit lines (the log cut before them), the torneo is as it was.
    before = standings(torneo, upto=len(torneo.log) - corrections)
    assert [s.line for s in before] == [s.line for s in first]
    # A round-trip through the record keeps every line.
    again = model.loads(model.dumps(torneo))
    assert again.audit() == audit


@settings(max_examples=20, deadline=None)
@given(k=st.integers(1, 6), seed=st.integers(0, 1000))
def test_the_rotation_never_repeats_a_partner(k: int, seed: int) -> None:
    count = 4 * k
    rounds = random.Random(seed).randint(1, count - 1)
    partners: Counter[frozenset[int]] = Counter()
    for tables in rotation(count, rounds):
        seated = sorted(p for a, b in tables for p in (*a, *b))
        assert seated == list(range(count))
        for a, b in tables:
            partners[frozenset(a)] += 1
            partners[frozenset(b)] += 1
    assert max(partners.values()) == 1
    if rounds == count - 1:
        assert len(partners) == count * (count - 1) // 2


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    count=st.integers(3, 12),
    system=st.sampled_from(["swiss", "round_robin"]),
    duplicate=st.sampled_from([0, 2]),
)
def test_any_torneo_an_organizer_can_make_checks_after_a_round_trip(
    seed: int, count: int, system: str, duplicate: int
) -> None:
    """Late arrivals, withdrawals, forfeits and corrections of earlier rounds entered after later
    ones were paired: the record re-pairs every round the same and counts the same."""
    rounds = min(4, count - 1 + count % 2)
    torneo = make(count, rounds=rounds, pairing=system, duplicate=duplicate)
    rng = random.Random(seed)

    def result() -> model.Result:
        if rng.random() < 0.15:
            return model.Result(forfeit=rng.choice("ab"))
        if duplicate:
            return model.Result(
                deals=tuple(rng.choice([(10, 0), (0, 25), (0, 0)]) for _ in range(2))
            )
        return model.Result(score=random_score(rng))

    for number in range(1, rounds + 1):
        if system == "swiss" and rng.random() < 0.3:
            torneo.register(f"Tarde {number}")
        if rng.random() < 0.2 and len(torneo.active(number)) > 3:
            torneo.withdraw(rng.choice(torneo.active(number)))
        made = torneo.next_round(f"semilla-{number}" if duplicate else None)
        for table in made.tables:
            torneo.enter(number, table.number, result(), "mesa", AT)
        if torneo.log and rng.random() < 0.5:  # a correction of any earlier table
            old = rng.choice(torneo.log)
            torneo.enter(old.round, old.table, result(), "árbitro", AT, "corrige")
    again = model.loads(model.dumps(torneo))
    assert model.dump(again) == model.dump(torneo)
    report = check(again)
    assert [s.line for s in report.standings] == [s.line for s in standings(torneo)]
    assert report.corrections == len(torneo.audit())
