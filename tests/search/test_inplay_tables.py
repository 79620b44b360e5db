"""The playouts read the in-play rules from tables: each table says what core.inplay says."""

from __future__ import annotations

import random

from fichaflow.core import inplay
from fichaflow.core.tiles import ALL_TILES, NUM_TILES
from fichaflow.search import tables

ENDS = [(a, b) for a in range(7) for b in range(7)]


def test_keeps_open_decides_every_tranque_as_the_rule_does() -> None:
    rng = random.Random(11)
    outsides = [0, ALL_TILES, *(1 << t for t in range(NUM_TILES))]
    outsides += [rng.getrandbits(NUM_TILES) & rng.getrandbits(NUM_TILES) for _ in range(300)]
    for a, b in ENDS:
        for outside in outsides:
            assert (not outside & tables.KEEPS_OPEN[a * 7 + b]) == inplay.tranque(outside, a, b)


def test_capicua_and_chuchazo_tiles_are_the_rule_s() -> None:
    for a, b in ENDS:
        for tile in range(NUM_TILES):
            found = tables.CAPICUA_TILES[a * 7 + b] >> tile & 1 == 1
            assert found == inplay.capicua(tile, a, b)
    for tile in range(NUM_TILES):
        assert (tables.CHUCHAZO_TILES >> tile & 1 == 1) == inplay.chuchazo(tile)


def test_pass_tables_are_the_rule_s() -> None:
    for seats in (2, 3, 4):
        for leader in range(seats):
            for seat in range(seats):
                for placed in range(NUM_TILES + 1):
                    off = NUM_TILES - placed
                    found = tables.SALIDA_PASADA_OFF[seats][leader][seat] >> off & 1 == 1
                    assert found == inplay.salida_pasada(seat, leader, seats, placed)
        for run_from in range(-1, seats):
            for passes in range(2 * seats):
                found = tables.PASE_REDONDO_PASSES[seats][run_from + 1] >> passes & 1 == 1
                assert found == inplay.pase_redondo(run_from, passes, seats)
