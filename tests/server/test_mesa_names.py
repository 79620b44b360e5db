"""Chairs that share a name (two tirafichas, two people called Ana) are told apart in the
partida, so that the table's sentences never read "tirafichas 6, tirafichas 21"."""

from __future__ import annotations

import re

from fichaflow.core.rules import Rules
from fichaflow.server import wire
from fichaflow.server.mesa import Mesa
from fichaflow.server.protocol import MesaOptions


def test_twin_chairs_get_their_seat_numbers_in_the_partida_and_its_sentences() -> None:
    rules = Rules.make("venezuela", target=500)
    plan: list[str | None] = [None, "tirafichas", None, "tirafichas"]
    mesa, _host, _token, _ = Mesa.create("gemelos", rules, MesaOptions(), plan, "Ana", 0)
    mesa.join("Ana", 2)
    mesa.start()
    assert mesa.partida is not None
    assert mesa.partida.players == ("Ana 1", "tirafichas 2", "Ana 3", "tirafichas 4")
    # The chairs keep the names people chose; only the partida tells the twins apart.
    assert [mesa.seat_name(s) for s in range(4)] == ["Ana", "tirafichas", "Ana", "tirafichas"]

    hand = mesa.hand
    assert hand is not None
    while mesa.hand is hand:
        mesa.play(hand.turn, hand.legal_moves()[0])
    summary = wire.partida_summary(mesa)
    assert summary is not None
    sentence = " ".join(summary["hands"][0]["explanation"]["es"])
    named = re.findall(r"\b(Ana|tirafichas)\b(?! [1-4])", sentence)
    assert named == [], f"a twin named without a seat: {sentence}"
    assert re.search(r"(Ana|tirafichas) [1-4]", sentence), sentence


def test_distinct_names_stay_as_chosen() -> None:
    rules = Rules.make("mano_a_mano", target=100)
    mesa, _host, _token, _ = Mesa.create("solo", rules, MesaOptions(), [None, "gallo"], "Ana", 0)
    mesa.start()
    assert mesa.partida is not None and mesa.partida.players == ("Ana", "gallo")
