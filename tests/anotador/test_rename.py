"""Renaming people on a stored sheet (what an account's deletion does to a torneo table's
sheet), on SQLite: the setup and every queue the log set take the new names, a new name that
somebody else on the sheet already has is numbered, and the sheet replays as before."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine

from fichaflow.anotador import store
from fichaflow.anotador.entries import load_change
from fichaflow.anotador.mesa import MesaSetup
from fichaflow.anotador.sheet import replay
from fichaflow.storage import make_engine, migrate

TRANQUE = {"type": "hand", "end": "tranque", "seat": 0, "pips": [8, 11, 7, 14], "leader": 0}
DOMINO = {"type": "hand", "end": "domino", "seat": 2, "pips": [0, 5, None, 6]}


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(f"sqlite:///{tmp_path / 'fichaflow.sqlite3'}")
    migrate(made)
    yield made
    made.dispose()


def test_a_renamed_person_leaves_the_setup_and_every_queue(engine: Engine) -> None:
    setup = MesaSetup.load(
        {
            "name": "Patio",
            "rules": {"preset": "dominicana", "target": 50},
            "players": ["Ana", "Beto", "Carla", "Diego"],
            "queue": ["Eva"],
        }
    )
    store.insert_mesa(engine, "hoja", "mirar", setup)
    log = [TRANQUE, {"type": "queue", "queue": ["Eva", "jugador borrado"]}, DOMINO]
    log.append({"type": "new_partida", "custom": "parados"})
    for number, change in enumerate(log, 1):
        store.insert_action(engine, "hoja", number, f"clave-{number:04}", load_change(change))
    kept = store.load(engine, "hoja")
    assert kept is not None
    was = replay(kept.mesa, kept.actions)

    with engine.begin() as connection:
        named = {"Ana": "jugador borrado", "Eva": "jugador borrado"}
        # (the read-only code comes back: what names the sheet to the other servers)
        assert store.rename(connection, "hoja", named) == "mirar"
        assert store.rename(connection, "no-hay", named) is None

    renamed = store.load(engine, "hoja")
    assert renamed is not None
    assert renamed.mesa.seating == ("jugador borrado (2)", "Beto", "Carla", "Diego")
    assert renamed.mesa.queue == ("jugador borrado (3)",)
    now = replay(renamed.mesa, renamed.actions)
    # The same partidas and totals; the waiting player somebody really called «jugador
    # borrado» keeps that name, and the renamed ones sit where they sat.
    assert [p.totals for p in now.partidas] == [p.totals for p in was.partidas]
    assert now.partidas[-1].seating == (
        "jugador borrado (2)",
        "jugador borrado (3)",
        "Carla",
        "jugador borrado",
    )
    assert "Ana" not in str(now) and "Eva" not in str(now)
