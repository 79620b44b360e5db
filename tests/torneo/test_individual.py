"""The individual format: each entrant a player, partners and rivals rotating by the published
schedule, individual standings."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from fichaflow.core.errors import FichaFlowError
from fichaflow.torneo import model
from fichaflow.torneo.check import check
from fichaflow.torneo.pairing import rotation
from fichaflow.torneo.standings import standings
from tests.torneo.kit import TORNEOS_PAGE, make, play_round


def test_eight_players_partner_everybody_once_in_seven_rounds() -> None:
    torneo = make(8, format="individual", rounds=7)
    rng = random.Random(8)
    for _ in range(7):
        play_round(torneo, rng)
    partners = Counter(
        frozenset(side) for r in torneo.rounds for t in r.tables for side in (t.a, t.b)
    )
    assert len(partners) == 28 and set(partners.values()) == {1}
    lines = [s.line for s in standings(torneo)]
    assert sorted(line.entrant for line in lines) == list(range(1, 9))
    assert all(line.played == 7 for line in lines)
    # Each table's two partners both get its result.
    assert sum(line.won for line in lines) == 2 * 2 * 7
    check(model.loads(model.dumps(torneo)))


def test_the_schedule_the_docs_publish_is_the_rotation() -> None:
    page = TORNEOS_PAGE.read_text(encoding="utf-8")
    for number, tables in enumerate(rotation(8, 7), 1):
        cells = " | ".join(
            f"{a[0] + 1} y {a[1] + 1} contra {b[0] + 1} y {b[1] + 1}" for a, b in tables
        )
        assert f"| {number} | {cells} |" in page


@pytest.mark.parametrize("count", [6, 9])
def test_the_individual_format_needs_a_multiple_of_four(count: int) -> None:
    torneo = make(count, format="individual", rounds=3)
    with pytest.raises(FichaFlowError) as refused:
        torneo.next_round()
    assert refused.value.code == "torneo.individual_count"
    assert torneo.rounds == []


def test_the_individual_format_is_paired_only_by_its_rotation() -> None:
    with pytest.raises(FichaFlowError) as refused:
        make(8, format="individual", pairing="swiss")
    assert refused.value.code == "torneo.system_for_format"


def _meetings(count: int, rounds: int) -> tuple[Counter[frozenset[int]], Counter[frozenset[int]]]:
    partners: Counter[frozenset[int]] = Counter()
    rivals: Counter[frozenset[int]] = Counter()
    for tables in rotation(count, rounds):
        for a, b in tables:
            partners.update((frozenset(a), frozenset(b)))
            rivals.update(frozenset((p, q)) for p in a for q in b)
    return partners, rivals


@pytest.mark.parametrize(
    ("count", "rounds", "fewest", "most_again"),
    [(16, 5, 8, 2), (20, 5, 9, 2), (24, 5, 9, 2), (32, 5, 10, 1), (40, 9, 16, 2), (200, 9, 18, 1)],
)
def test_the_rotation_spreads_partners_and_rivals(
    count: int, rounds: int, fewest: int, most_again: int
) -> None:
    """Nobody partners anybody twice, each player meets at least ``fewest`` different rivals of
    the ``2 × rounds`` rival seats they face, and no two players are rivals more than
    ``most_again`` times (the greedy grouping alone, beyond 16 players, gave 20 players in 5
    rounds someone with only 6 different rivals, one of them met 3 times)."""
    partners, rivals = _meetings(count, rounds)
    assert set(partners.values()) == {1}
    assert len(partners) == count * rounds // 2
    for player in range(count):
        assert sum(1 for pair in rivals if player in pair) >= fewest
    assert max(rivals.values()) <= most_again
