"""Seating: which bot plays, where the person sits, what everybody is called."""

from __future__ import annotations

import pytest

from fichaflow.bots import ladder
from fichaflow.bots.base import Bot
from fichaflow.bots.ladder import PLAYER_BOTS
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Move
from fichaflow.core.rules import Rules
from fichaflow.core.view import SeatView
from fichaflow.tui.setup import pick_bot, seat_players


def test_the_default_bot_is_gallo_or_the_strongest_registered_with_a_note():
    used, note = pick_bot("gallo")
    if "gallo" in PLAYER_BOTS:
        assert (used, note) == ("gallo", None)
    else:
        assert used == PLAYER_BOTS[-1]  # the ladder's order: weakest first
        assert note == f"El bot gallo todavía no está disponible: juegan con {used}."


def test_any_offered_bot_can_be_chosen():
    for name in PLAYER_BOTS:
        assert pick_bot(name) == (name, None)


def test_an_unknown_bot_is_refused_with_the_list():
    with pytest.raises(FichaFlowError) as caught:
        pick_bot("nadie")
    message = caught.value.message("es")
    assert message.startswith("No existe el bot «nadie»")
    assert all(name in message for name in PLAYER_BOTS)


def test_a_benchmark_only_bot_is_not_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    class Vidente(Bot):
        name = "vidente"
        sees_all = True

        def choose(self, view: SeatView) -> Move:
            return view.legal[0]

    monkeypatch.setitem(ladder.BOTS, "vidente", Vidente)
    with pytest.raises(FichaFlowError) as caught:
        pick_bot("vidente")
    assert caught.value.code == "play.bot_not_offered"
    assert "solo para pruebas de rendimiento" in caught.value.message("es")


def test_the_person_sits_where_asked_and_the_partner_is_opposite():
    seating = seat_players(Rules.make("venezuela"), "tirafichas", 1, "Ana", "s")
    assert seating.names[1] == "Ana"
    assert seating.labels == ("", "tú", "", "compañero")
    assert len(set(seating.names)) == 4


def test_a_person_named_like_a_bot_still_gets_three_other_names():
    seating = seat_players(Rules.make("venezuela"), "tirafichas", 0, "Beto", "s")
    assert seating.names[0] == "Beto"
    assert len(set(seating.names)) == 4


def test_no_seed_draws_a_fresh_one_and_tells_it():
    one = seat_players(Rules.make("tres"), "tirafichas", 0, None, None)
    two = seat_players(Rules.make("tres"), "tirafichas", 0, None, None)
    assert one.seed != two.seed
    assert any(one.seed in note for note in one.notes)


@pytest.mark.parametrize(("preset", "seat"), [("venezuela", 4), ("mano_a_mano", 2), ("tres", -1)])
def test_a_seat_off_the_table_is_refused(preset: str, seat: int) -> None:
    with pytest.raises(FichaFlowError) as caught:
        seat_players(Rules.make(preset), "tirafichas", seat, None, "s")
    assert caught.value.code == "play.seat"
