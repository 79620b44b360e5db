"""A mesa nobody is at leaves the server's memory and comes back, exactly as it was, the moment
somebody asks for it: by its link, by joining it, or by saying hello with their seat token."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from fichaflow.app import create_app
from fichaflow.core.errors import FichaFlowError
from fichaflow.server import protocol as p
from fichaflow.server import storage, wire
from fichaflow.server.botpool import LocalBotPool
from fichaflow.server.hub import Connection
from fichaflow.server.service import TableService
from fichaflow.server.settings import Settings
from fichaflow.storage import migrate


def connection() -> Connection:
    """A connection with no socket behind it: what the service sends stays in its outbox."""
    return Connection(None)  # type: ignore[arg-type]


def said(conn: Connection) -> list[dict[str, Any]]:
    """Every message waiting for ``conn`` so far."""
    return [json.loads(text) for text in conn.waiting()]


async def say(service: TableService, conn: Connection, **message: Any) -> None:
    await service.handle(conn, p.read_intention(json.dumps({"ref": 1, **message})))


def test_an_idle_mesa_leaves_memory_and_comes_back_as_it_was(tmp_path: Path) -> None:
    async def scenario() -> None:
        db = storage.Storage(f"sqlite:///{tmp_path / 'idle.sqlite3'}")
        await db.run(migrate, db.engine)
        service = TableService(db, LocalBotPool(1), idle_seconds=0)
        request = p.CreateMesa(rules="mano_a_mano", seats=[None, None], name="Ana", seat=0)
        created = await service.create(request, "http://127.0.0.1")
        code = created["code"]
        await service.join(code, p.Join(name="Beto", seat=1))

        ana = connection()
        await say(service, ana, type="hello", code=code, token=created["token"])
        await say(service, ana, type="start")
        mesa = service.rooms[code].mesa
        hand = mesa.hand
        assert hand is not None
        # While anybody is connected the mesa stays, however long it has been.
        assert await service.unload_idle() == []

        # Ana plays once (in the tests' deal her seat 0 holds the 6-6 and leads), then leaves.
        assert hand.turn == 0
        move = wire.view(mesa, 0)["legal"][0]  # type: ignore[index]
        await say(service, ana, type="play", move=move)
        views = {seat: wire.view(mesa, seat) for seat in (None, 0, 1)}
        version = mesa.version
        await service.leave(ana)

        assert await service.unload_idle() == [code]
        assert code not in service.rooms and service.tokens == {}

        # Ana comes back with her token: the mesa is rebuilt, her seat and tiles with it.
        again = connection()
        await say(service, again, type="hello", code=code, token=created["token"])
        welcome = said(again)[0]
        assert welcome["type"] == "welcome" and welcome["you"]["seat"] == 0
        assert welcome["view"] == views[0] and welcome["seq"] == version
        back = service.rooms[code].mesa
        assert back is not mesa
        assert {seat: wire.view(back, seat) for seat in (None, 0, 1)} == views
        await service.leave(again)

        # By its link or by joining, the same.
        assert await service.unload_idle() == [code]
        public = await service.public(code)
        assert public["mesa"]["seats"][1]["name"] == "Beto"
        assert await service.unload_idle() == [code]
        with pytest.raises(FichaFlowError) as taken:
            await service.join(code, p.Join(name="Carla", seat=1))
        assert taken.value.code == "server.seat_taken"
        queued = await service.join(code, p.Join(name="Carla", seat=None))
        assert queued["queued"]

        # Many clients of one mesa come back at once: it is loaded once, for all of them.
        assert await service.unload_idle() == [code]
        rooms = await asyncio.gather(*(service.room(code) for _ in range(5)))
        assert all(room is rooms[0] for room in rooms) and service.rooms[code] is rooms[0]
        assert len(service._loading) == 0  # no lock kept for a load that is over

        # A mesa that never was is still refused in Spanish, and changes nothing.
        with pytest.raises(FichaFlowError) as missing:
            await service.public("no-existe")
        assert missing.value.code == "server.no_mesa"
        assert "no-existe" not in service.rooms
        db.close()

    asyncio.run(scenario())


async def a_new_mesa(path: Path, idle_seconds: float) -> tuple[storage.Storage, TableService, str]:
    """A service on a new SQLite file, with one new mano a mano mesa nobody is connected to."""
    db = storage.Storage(f"sqlite:///{path}")
    await db.run(migrate, db.engine)
    service = TableService(db, LocalBotPool(1), idle_seconds=idle_seconds)
    request = p.CreateMesa(rules="mano_a_mano", seats=[None, None], name="Ana", seat=0)
    code = (await service.create(request, "http://127.0.0.1"))["code"]
    return db, service, code


def test_a_mesa_with_a_bot_or_a_timer_under_way_stays(tmp_path: Path) -> None:
    async def scenario() -> None:
        db, service, code = await a_new_mesa(tmp_path / "busy.sqlite3", idle_seconds=0)
        room = service.rooms[code]
        room.tasks["bot"] = asyncio.get_running_loop().create_task(asyncio.sleep(60))
        assert await service.unload_idle() == []
        room.tasks["bot"].cancel()
        await asyncio.sleep(0)
        assert await service.unload_idle() == [code]
        assert room.unloaded
        db.close()

    asyncio.run(scenario())


def test_a_mesa_is_kept_for_the_idle_time_after_the_last_one_leaves(tmp_path: Path) -> None:
    async def scenario() -> None:
        db, service, code = await a_new_mesa(tmp_path / "grace.sqlite3", idle_seconds=3600)
        assert await service.unload_idle() == []
        service.rooms[code].quiet_since -= 3600
        assert await service.unload_idle() == [code]
        db.close()

    asyncio.run(scenario())


def test_the_server_lets_idle_mesas_go_by_itself(tmp_path: Path) -> None:
    settings = Settings(f"sqlite:///{tmp_path / 'app.sqlite3'}", idle_seconds=0.2, bot_workers=1)
    app = create_app(settings)

    async def scenario() -> None:
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="http://test") as client,
        ):

            async def in_memory() -> int:
                return int((await client.get("/api/health")).json()["mesas"])

            body = {"rules": "mano_a_mano", "seats": [None, None], "name": "Ana", "seat": 0}
            created = await client.post("/api/mesas", json=body)
            assert created.status_code == 201
            code = created.json()["code"]
            assert await in_memory() == 1
            for _ in range(200):
                if not await in_memory():
                    break
                await asyncio.sleep(0.05)
            assert await in_memory() == 0
            again = await client.get(f"/api/mesas/{code}")
            assert again.status_code == 200
            assert again.json()["mesa"]["seats"][0]["name"] == "Ana"
            assert await in_memory() == 1

    asyncio.run(scenario())
