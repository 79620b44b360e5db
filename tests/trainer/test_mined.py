"""Problemas mined from a real server's partidas (``fichaflow problemas mine-server``), on
SQLite and PostgreSQL: a partida whose two signed-in players both allow it gives problemas that
the server's trainer then serves; one where a player does not allow it, or a guest played, gives
none; a second run adds nothing; a player who stops allowing it, or deletes their account, takes
its problemas away; bad input is refused in Spanish and changes nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, func, select

from fichaflow.core.hand import write_move
from fichaflow.core.tiles import bits, name
from fichaflow.problemas import Puzzle, load_set
from fichaflow.trainer.mined import MinedPartidaRow, MinedPuzzleRow
from tests.accounts.kit import Player, error_code, fresh_name
from tests.cli.clikit import fichaflow
from tests.server.kit import (
    POSTGRES_ENV,
    POSTGRESQL,
    TEST_SEED,
    Client,
    ServerProcess,
    all_told_partida_over,
    postgres_database,
)

QUICK = {"preset": "mano_a_mano", "target": 10}


@pytest.fixture(scope="module", params=["sqlite", POSTGRESQL])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("mined-server")
    log = folder / "server.log"
    if request.param == "sqlite":
        url = f"sqlite:///{folder / 'fichaflow.sqlite3'}"
        with ServerProcess(url, log=log, seed=TEST_SEED) as srv:
            yield srv
        return
    import os

    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: no PostgreSQL to test against")
    with (
        postgres_database(base, "mined") as url,
        ServerProcess(url, log=log, seed=TEST_SEED) as srv,
    ):
        yield srv


def player(server: ServerProcess, allowed: bool | None) -> Player:
    """A signed-up player who allows (or not) their partidas for problemas; ``None``: a guest."""
    someone = Player(server)
    if allowed is None:
        return someone
    someone.sign_up(fresh_name("Ana"))
    if allowed:
        assert someone.took(someone.post("/problemas", {"allowed": True})) == {"problemas": True}
    assert someone.took(someone.get("/me"))["problemas"] is allowed
    return someone


def play_partida(server: ServerProcess, host: Player, guest: Player, seed: int) -> str:
    """A short partida mano a mano between ``host`` and ``guest`` (each signed in if they have
    a session), played out to its end; the mesa's code. Every mesa of the test server is dealt
    the same hands: the players' random moves (from ``seed``) make each partida another."""
    headers = {"X-CSRF-Token": host.csrf} if host.csrf else {}
    body = {"name": "Ana", "seat": 0, "rules": QUICK, "seats": [None, None]}
    made = host.http.post(
        "/api/mesas", json={**body, "options": {"bot_pause_ms": 0}}, headers=headers
    )
    assert made.status_code == 201, made.text
    code: str = made.json()["code"]
    headers = {"X-CSRF-Token": guest.csrf} if guest.csrf else {}
    joined = guest.http.post(
        f"/api/mesas/{code}/join", json={"name": "Beto", "seat": 1}, headers=headers
    )
    assert joined.status_code == 201, joined.text
    tokens = [made.json()["token"], joined.json()["token"]]

    async def play() -> None:
        clients = [
            Client(server, code, t, autoplay=True, seed=seed * 2 + i) for i, t in enumerate(tokens)
        ]
        for client in clients:
            await client.connect()
        await clients[0].send({"type": "start"})
        await all_told_partida_over(clients, 120)
        for client in clients:
            await client.close()

    asyncio.run(play())
    return code


def mine(server: ServerProcess) -> str:
    done = fichaflow("problemas", "mine-server", "--db", server.database_url, timeout=600)
    assert done.status == 0, done.err
    return done.out


def stored(server: ServerProcess, mesa: str | None = None) -> list[str]:
    """The ids of the problemas stored (of ``mesa``'s partidas, when given)."""
    engine = create_engine(server.database_url)
    try:
        with engine.connect() as connection:
            query = select(MinedPuzzleRow.puzzle)
            if mesa is not None:
                query = query.where(MinedPuzzleRow.mesa == mesa)
            return sorted(connection.execute(query).scalars())
    finally:
        engine.dispose()


def served(server: ServerProcess, puzzle: str, present: bool = True) -> dict[str, Any]:
    """The trainer's answer for ``puzzle``, once it shows the set as stored (it reads the
    database again every few seconds)."""
    deadline = time.monotonic() + 30
    while True:
        answer = httpx.get(f"{server.url}/api/problemas/{puzzle}", timeout=10)
        if (answer.status_code == 200) == present or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    data: dict[str, Any] = answer.json()
    assert (answer.status_code == 200) == present, answer.text
    return data


def puzzles_of(server: ServerProcess, mesa: str) -> list[Puzzle]:
    engine = create_engine(server.database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(MinedPuzzleRow.data).where(MinedPuzzleRow.mesa == mesa)
            ).scalars()
            return [Puzzle.from_json(data) for data in rows]
    finally:
        engine.dispose()


def marked(server: ServerProcess, mesa: str) -> int:
    """How many of ``mesa``'s partidas the miner has marked as mined."""
    engine = create_engine(server.database_url)
    try:
        with engine.connect() as connection:
            return int(
                connection.execute(
                    select(func.count())
                    .select_from(MinedPartidaRow)
                    .where(MinedPartidaRow.mesa == mesa)
                ).scalar_one()
            )
    finally:
        engine.dispose()


def test_a_partida_both_players_allowed_gives_problemas_the_trainer_serves(
    server: ServerProcess,
) -> None:
    ana, beto = player(server, True), player(server, True)
    code = play_partida(server, ana, beto, 1)
    said = mine(server)
    mined = puzzles_of(server, code)
    assert mined, said
    assert {p.kind for p in mined} <= {"face_up", "seat"}
    assert all(p.source["mesa"] == code and p.source["partida"] == 1 for p in mined)
    assert not {p.id for p in mined} & {p.id for p in load_set()}  # never one shipped
    first = mined[0]
    shown = served(server, first.id)
    assert shown["id"] == first.id and "solution" not in shown
    assert shown["position"]["hand"] == [name(t) for t in bits(first.hand().hands[first.seat])]
    # a wrong answer is judged as a shipped problema's is, and the problema's rating moves
    hand = first.hand()
    wrong = next(move for move in first.values if move != first.best)
    answer = httpx.post(
        f"{server.url}/api/problemas/{first.id}/attempt",
        json={"move": write_move(hand.parse(wrong))},
        timeout=10,
    )
    assert answer.status_code == 200, answer.text
    verdict = answer.json()
    assert verdict["correct"] is False and verdict["done"] is True
    assert verdict["cost"] >= 10 and verdict["best"] == first.best
    assert verdict["puzzle_rating"] > shown["rating"]  # a miss: the problema looks harder
    # a second run adds nothing, and solves nothing again
    again = mine(server)
    assert again.startswith("0 problemas nuevos guardados de 0 partidas"), again
    assert sorted(p.id for p in puzzles_of(server, code)) == sorted(p.id for p in mined)


def test_a_partida_one_player_did_not_allow_gives_none(server: ServerProcess) -> None:
    carla, dani = player(server, True), player(server, False)
    code = play_partida(server, carla, dani, 2)
    before = stored(server)
    said = mine(server)
    assert puzzles_of(server, code) == [] and marked(server, code) == 0, said
    assert stored(server) == before
    # once Dani allows it too, the same partida is mined
    assert dani.took(dani.post("/problemas", {"allowed": True})) == {"problemas": True}
    mine(server)
    assert marked(server, code) == 1


def test_a_guests_partida_gives_none(server: ServerProcess) -> None:
    eva, guest = player(server, True), player(server, None)
    code = play_partida(server, eva, guest, 3)
    before = stored(server)
    mine(server)
    assert puzzles_of(server, code) == [] and marked(server, code) == 0
    assert stored(server) == before


def test_withdrawing_consent_or_deleting_the_account_takes_the_problemas_away(
    server: ServerProcess,
) -> None:
    fran, gabi = player(server, True), player(server, True)
    code = play_partida(server, fran, gabi, 4)
    mine(server)
    mined = sorted(p.id for p in puzzles_of(server, code))
    assert mined
    served(server, mined[0])
    # Gabi stops allowing it: the partida's problemas go, and the trainer stops serving them
    assert gabi.took(gabi.post("/problemas", {"allowed": False})) == {"problemas": False}
    assert puzzles_of(server, code) == [] and marked(server, code) == 0
    served(server, mined[0], present=False)
    exported = gabi.get("/export").json()
    assert exported["account"]["problemas_allowed"] is False
    assert fran.get("/export").json()["account"]["problemas_allowed"] is True
    # a run now leaves the partida out; allowed again, it is mined again, the same problemas
    mine(server)
    assert puzzles_of(server, code) == []
    gabi.took(gabi.post("/problemas", {"allowed": True}))
    mine(server)
    assert sorted(p.id for p in puzzles_of(server, code)) == mined
    # Fran deletes the account: the partida's problemas go with it
    assert fran.delete("/me").status_code == 200
    assert puzzles_of(server, code) == [] and marked(server, code) == 0
    served(server, mined[0], present=False)


def test_bad_input_is_refused_in_spanish_and_changes_nothing(
    server: ServerProcess, tmp_path: Path
) -> None:
    hana = player(server, True)
    for bad in ("sí", 1, None, [True]):
        refused = hana.post("/problemas", {"allowed": bad})
        assert refused.status_code == 400, refused.text
        assert error_code(refused) == "accounts.problemas_allowed"
        assert "true o false" in refused.json()["error"]["message"]
        assert hana.took(hana.get("/me"))["problemas"] is True
    signed_out = Player(server).post("/problemas", {"allowed": True})
    assert signed_out.status_code == 401
    before = stored(server)
    missing = tmp_path / "no-such.sqlite3"
    empty = tmp_path / "empty.sqlite3"
    empty.write_bytes(b"")
    for url, said in (
        ("nada de url", "no es la dirección de una base de datos"),
        (f"sqlite:///{missing}", "no existe la base de datos"),
        (f"sqlite:///{empty}", "no es la base de datos de un servidor de FichaFlow al día"),
    ):
        done = fichaflow("problemas", "mine-server", "--db", url)
        assert said.lower() in done.error_line.lower() and done.error_line.startswith("Error: ")
    assert not missing.exists() and empty.read_bytes() == b""
    assert stored(server) == before


def test_a_partida_of_bots_only_is_mined(server: ServerProcess) -> None:
    body = {"name": "Ana", "rules": QUICK, "seats": ["tirafichas", "jugador"]}
    made = httpx.post(
        f"{server.url}/api/mesas", json={**body, "options": {"bot_pause_ms": 0}}, timeout=10
    )
    assert made.status_code == 201, made.text
    code, token = made.json()["code"], made.json()["token"]

    async def watch() -> None:
        host = Client(server, code, token)
        await host.connect()
        await host.send({"type": "start"})
        await all_told_partida_over([host], 120)
        await host.close()

    asyncio.run(watch())
    mine(server)
    assert marked(server, code) == 1
    found = puzzles_of(server, code)
    assert found and all(p.source["mesa"] == code for p in found)
