"""The mesa's snapshot in memory, taken after every commit (what a failed commit goes back to):
it always says what a snapshot taken from nothing says, and the mesa it restores is the same."""

from __future__ import annotations

import random

from fichaflow.core.rules import Rules
from fichaflow.server import wire
from fichaflow.server.mesa import Mesa
from fichaflow.server.protocol import MesaOptions


def from_nothing(mesa: Mesa) -> object:
    kept = mesa._last
    mesa._last = None
    try:
        return mesa.snapshot()
    finally:
        mesa._last = kept


def test_each_snapshot_is_the_whole_mesa_through_partidas_of_many_hands() -> None:
    rng = random.Random(7)
    options = MesaOptions(parados=True)
    mesa, _host, _token, _ = Mesa.create(
        "abc", Rules.load({"preset": "mano_a_mano", "target": 60}), options, None, "Ana", 0
    )
    mesa.join("Beto", 1)
    checked = 0

    def check() -> None:
        nonlocal checked
        snap = mesa.snapshot()
        assert snap == from_nothing(mesa)
        back = Mesa.restore(snap)
        assert back.snapshot() == snap
        for seat in (None, 0, 1):
            assert wire.view(back, seat) == wire.view(mesa, seat)
        checked += 1

    check()
    mesa.join("Cora", None)  # a parada: she sits down when a side loses
    check()
    for _partida in range(2):
        mesa.start()
        check()
        while mesa.playing:
            if mesa.status == "hand_over":
                mesa.deal_next_hand()
            else:
                hand = mesa.hand
                assert hand is not None
                mesa.play(hand.turn, rng.choice(hand.legal_moves()))
            check()
        assert len(mesa.hands) > 1
    assert checked > 50
