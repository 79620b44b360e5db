"""The players' side of a partida's end, on a migrated SQLite database: a rated partida moves
each account's rating and keeps its partida, bots stay fixed, told twice nothing changes, and a
partida that is not rated is kept without moving anything."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, insert

from fichaflow.accounts.players import leaderboard, player, record_partida
from fichaflow.accounts.tables import AccountRow
from fichaflow.core.rules import Mode
from fichaflow.ratings.bots import bot_ratings
from fichaflow.storage.database import make_engine, migrate


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    made = make_engine(f"sqlite:///{tmp_path / 'players.sqlite3'}")
    migrate(made)
    with made.begin() as connection:
        connection.execute(
            insert(AccountRow),
            [
                {"id": i, "name": i.title(), "name_key": i, "created_at": datetime.now(UTC)}
                for i in ("ana", "beto", "carla")
            ],
        )
    yield made
    made.dispose()


def parejas(number: int, rated: bool = True, bot: str = "jugador") -> dict[str, Any]:
    """Ana and Beto (seats 0 and 2) against Carla and a bot; Ana's pareja wins."""
    accounts = ["ana", "carla", "beto", None]
    return {
        "mesa": "M1",
        "partida": number,
        "mode": "parejas",
        "rated": rated,
        "seats": [
            {"seat": s, "account": a, "bot": None if a else bot, "name": a or bot}
            for s, a in enumerate(accounts)
        ],
        "teams": [0, 1, 0, 1],
        "places": [0, 1],
    }


def test_a_rated_partida_moves_the_people_and_not_the_bot(engine: Engine) -> None:
    changes = record_partida(engine, parejas(1))
    assert changes is not None
    by_seat = {c["seat"]: c for c in changes}
    assert by_seat[0]["before"] == by_seat[2]["before"] == 1500 == by_seat[1]["before"]
    assert by_seat[0]["change"] > 0 and by_seat[2]["change"] > 0 and by_seat[1]["change"] < 0
    bot = bot_ratings(Mode.PAREJAS)["jugador"]
    assert by_seat[3] | {"name": ""} == {
        "seat": 3,
        "name": "",
        "bot": True,
        "before": bot,
        "after": bot,
        "change": 0,
        "provisional": False,
    }
    # told twice: nothing moves, nothing is added
    assert record_partida(engine, parejas(1)) is None
    ana = player(engine, "ana")
    assert ana is not None
    assert ana["ratings"]["parejas"]["rating"] == by_seat[0]["after"]
    assert ana["ratings"]["parejas"]["partidas"] == 1 and len(ana["partidas"]) == 1
    # a second partida starts from the first's rating
    again = record_partida(engine, parejas(2))
    assert again is not None and again[0]["before"] == by_seat[0]["after"]
    board = leaderboard(engine, Mode.PAREJAS)["entries"]
    people = [e["name"] for e in board if e["kind"] == "player"]
    assert people == ["Ana", "Beto", "Carla"] or people == ["Beto", "Ana", "Carla"]
    assert all(e["provisional"] for e in board if e["kind"] == "player")


def test_an_unrated_partida_is_kept_without_moving_anything(engine: Engine) -> None:
    assert record_partida(engine, parejas(1, rated=False)) is None
    assert record_partida(engine, parejas(2, bot="nadie-lo-midio")) is None
    ana = player(engine, "ana")
    assert ana is not None
    assert ana["ratings"]["parejas"] == {"rating": 1500, "partidas": 0, "provisional": True}
    assert [(p["rated"], p["before"], p["after"]) for p in ana["partidas"]] == [
        (False, None, None),
        (False, None, None),
    ]
    assert ana["history"]["parejas"] == []
