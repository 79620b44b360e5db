"""The in-play rules, each decided in one place (core.inplay) for both engines."""

from __future__ import annotations

from fichaflow.core import inplay
from fichaflow.core.tiles import ALL_TILES, SUIT, parse


def test_tranque_when_no_tile_off_the_line_fits_either_end() -> None:
    fives_or_threes = SUIT[5] | SUIT[3]
    assert inplay.tranque(ALL_TILES & ~fives_or_threes, 5, 3)
    assert not inplay.tranque(1 << parse("5-0"), 5, 3)
    assert not inplay.tranque(1 << parse("3-3"), 5, 3)
    assert inplay.tranque(0, 6, 6)


def test_capicua_needs_the_last_tile_to_match_two_different_ends() -> None:
    assert inplay.capicua(parse("6-4"), 6, 4)
    assert inplay.capicua(parse("6-4"), 4, 6)
    assert not inplay.capicua(parse("4-4"), 4, 4)  # two equal ends: no capicúa
    assert not inplay.capicua(parse("6-2"), 6, 4)  # matched one end only
    assert not inplay.capicua(parse("6-4"), -1, -1)  # a lead matches no end


def test_chuchazo_is_a_dominada_closed_by_the_double_blank() -> None:
    assert inplay.chuchazo(parse("0-0"))
    assert not [t for t in range(1, 28) if inplay.chuchazo(t)]


def test_salida_pasada_is_the_next_player_passing_on_the_lead_tile() -> None:
    assert inplay.salida_pasada(seat=1, leader=0, seats=4, placed=1)
    assert inplay.salida_pasada(seat=0, leader=3, seats=4, placed=1)
    assert inplay.salida_pasada(seat=0, leader=2, seats=3, placed=1)
    assert not inplay.salida_pasada(seat=2, leader=0, seats=4, placed=1)  # not the next player
    assert not inplay.salida_pasada(seat=1, leader=0, seats=4, placed=2)  # a later pass


def test_pase_redondo_when_every_other_player_passed_in_a_row() -> None:
    assert inplay.pase_redondo(run_from=2, passes=3, seats=4)
    assert inplay.pase_redondo(run_from=0, passes=1, seats=2)
    assert not inplay.pase_redondo(run_from=2, passes=2, seats=4)
    assert not inplay.pase_redondo(run_from=-1, passes=3, seats=4)  # nobody placed a tile yet
