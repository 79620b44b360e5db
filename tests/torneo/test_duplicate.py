"""Dominó duplicado: the worked round of docs/torneos.md, and a round of 4 tables played by bots
on the deals its revealed seed makes."""

from __future__ import annotations

import pytest

from fichaflow.bots.ladder import make_bot
from fichaflow.core.deal import Deal, commitment
from fichaflow.core.errors import FichaFlowError
from fichaflow.match.play import play_hand
from fichaflow.torneo import model
from fichaflow.torneo.check import check
from fichaflow.torneo.duplicate import (
    hand_seed,
    leader,
    matchpoints,
    round_deals,
    round_matchpoints,
)
from fichaflow.torneo.standings import standings
from tests.torneo.kit import AT, EXAMPLES, doc_table, make


def example() -> model.Torneo:
    return model.loads((EXAMPLES / "duplicado.json").read_bytes())


def test_matchpoints_are_two_per_result_beaten_and_one_per_tie() -> None:
    assert matchpoints([30, 30, -12, 45]) == [3, 3, 0, 6]
    assert matchpoints([5]) == [0]
    assert matchpoints([1, 1, 1]) == [2, 2, 2]


def test_the_worked_round_gives_the_matchpoints_the_docs_show() -> None:
    torneo = example()
    [made] = torneo.rounds
    results = torneo.results()
    deals = [results[(1, t.number)].deals or () for t in made.tables]
    north = [[a - b for a, b in table] for table in deals]
    rows = [[str(t.number)] for t in made.tables]
    for k in range(3):
        ns = matchpoints([n[k] for n in north])
        ew = matchpoints([-n[k] for n in north])
        for row, table, a, b in zip(rows, deals, ns, ew, strict=True):
            row += [f"{table[k][0]}-{table[k][1]}", str(a), str(b)]
    assert rows == doc_table("duplicado")
    # The round's totals are those sums: 9, 3, 9 and 15 for norte–sur.
    totals = round_matchpoints(torneo, made, results)
    assert [totals[t.a[0]] for t in made.tables] == [(9, 18), (3, 18), (9, 18), (15, 18)]


def test_the_worked_round_standings_are_the_docs_table() -> None:
    torneo = example()
    got = [
        [
            str(s.position),
            torneo.entrant(s.line.entrant).name,
            f"{s.line.matchpoints:g}",
            f"{s.line.percent:.1f}",
            str(s.line.points_for),
            str(s.line.points_against),
        ]
        for s in standings(torneo)
    ]
    assert got == doc_table("duplicado-clasificacion")
    report = check(torneo)
    assert report.seeds == 1
    [made] = torneo.rounds
    assert made.seed == "torneo-duplicado-ronda-1" and made.commitment == commitment(made.seed)


def test_four_tables_of_bots_play_the_deals_of_the_revealed_seed() -> None:
    seed = "d" * 64
    torneo = make(8, rounds=1, duplicate=4)
    made = torneo.next_round(seed)
    assert made.commitment == commitment(seed) and len(made.tables) == 4
    bots = ["tirafichas", "tirapuntos", "acuestafichas", "jugador"] * 2
    played: dict[int, list[Deal]] = {}
    for table in made.tables:
        seats = [bots[table.a[0] - 1], bots[table.b[0] - 1]] * 2
        players = [make_bot(name, seed=s) for s, name in enumerate(seats)]
        deals, points = [], []
        for k in range(1, 5):
            deal = Deal.from_seed(4, hand_seed(seed, k))  # what the server would deal
            result = play_hand(torneo.settings.rules, deal, players, leader(k))
            deals.append(deal)
            gains = result.score.gains(2)
            points.append((gains[0], gains[1]))
        played[table.number] = deals
        torneo.enter(1, table.number, model.Result(deals=tuple(points)), "bots", AT)
    # Every table got the same deals, and they are the ones the revealed seed makes.
    assert all(deals == round_deals(seed, 4) for deals in played.values())
    mps = round_matchpoints(torneo, made, torneo.results())
    assert sum(mp for mp, _ in mps.values()) == 2 * 4 * (2 * 4 * 3 // 2)  # 2 per comparison
    assert {top for _, top in mps.values()} == {4 * 6}
    check(model.loads(model.dumps(torneo)))


def test_a_seed_that_breaks_its_promise_is_found() -> None:
    data = model.dump(example())
    data["rounds"][0]["seed"] = "otra-semilla"
    with pytest.raises(FichaFlowError) as refused:
        check(model.load(data))
    assert refused.value.code == "torneo.seed_commitment"
    del data["rounds"][0]["seed"]
    with pytest.raises(FichaFlowError) as refused:
        check(model.load(data))
    assert refused.value.code == "torneo.seed_not_revealed"


def test_a_public_copy_hides_the_seed_until_the_round_is_over() -> None:
    torneo = make(4, rounds=1, duplicate=2)
    made = torneo.next_round("secreta")
    assert "seed" not in model.dump(torneo, public=True)["rounds"][0]
    for table in made.tables:
        torneo.enter(1, table.number, model.Result(deals=((10, 0), (0, 7))), "x", AT)
    assert model.dump(torneo, public=True)["rounds"][0]["seed"] == "secreta"


def test_a_duplicate_round_needs_its_seed_and_every_deal() -> None:
    torneo = make(4, rounds=1, duplicate=2)
    with pytest.raises(FichaFlowError) as refused:
        torneo.next_round()
    assert refused.value.code == "torneo.duplicate_needs_seed" and torneo.rounds == []
    torneo.next_round("s")
    with pytest.raises(FichaFlowError) as refused:
        torneo.enter(1, 1, model.Result(deals=((10, 0),)), "x", AT)
    assert refused.value.message() == "Hay 1 repartos anotados y la ronda tiene 2"
    assert torneo.log == []
