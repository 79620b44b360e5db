"""A player's page counts what domino players count (#16): a seeded parejas partida to 50 of
four tirafichas, worked out from its hands (seat 3 closes a tranque that seats 0 and 2 win, then
seat 2 dominates twice, both with a capicúa; 61 to 0, a zapato), counted from its record for
each seat: the capicúas are the player's own, not the partner's, and the zapato is given by the
winners and taken by the losers."""

from __future__ import annotations

import json

from fichaflow.accounts.stats import Stats, count, replayed
from fichaflow.bots.ladder import make_bot
from fichaflow.core import record
from fichaflow.core.hand import EndKind
from fichaflow.core.rules import Rules
from fichaflow.match.play import play_partida


def test_capicuas_and_zapatos_are_counted_for_the_player_who_made_them() -> None:
    rules = Rules.make("venezuela", target=50)
    bots = [make_bot("tirafichas", seed=seat) for seat in range(4)]
    played = play_partida(rules, lambda k: f"stats-1-{k}", bots).partida
    # The partida as worked out: what each hand was, who won it and what it was worth.
    hands = [
        (h.score.facts.end, h.score.facts.seat, h.score.facts.capicua, h.score.winner)
        for h in played.played
    ]
    assert hands == [
        (EndKind.TRANQUE, 3, False, 0),
        (EndKind.DOMINO, 2, True, 0),
        (EndKind.DOMINO, 2, True, 0),
    ]
    assert played.scores == (61, 0) and played.winner == 0
    partida = replayed(json.loads(json.dumps(record.dump(played))))
    figures = []
    for seat in range(4):
        stats = Stats()
        count(stats, partida, seat)
        figures.append(stats.json())
    winners = {
        "partidas": 1,
        "partidas_won": 1,
        "hands": 3,
        "hands_won": 3,
        "tantos": 61,
        "tantos_per_hand": 20.3,
        "dominadas_won": 2,
        "tranques_won": 1,
        "capicuas": 0,
        "zapatos_given": 1,
        "zapatos_taken": 0,
    }
    losers = {
        **winners,
        "partidas_won": 0,
        "hands_won": 0,
        "tantos": 0,
        "tantos_per_hand": 0.0,
        "dominadas_won": 0,
        "tranques_won": 0,
        "zapatos_given": 0,
        "zapatos_taken": 1,
    }
    assert figures == [winners, losers, {**winners, "capicuas": 2}, losers]
