"""The public lobby and «Jugar ya» (#16), on a real server (SQLite, and PostgreSQL in the full
run): a public mesa is listed with its rules, free seats, ratings and mirones, and every change
reaches a lobby watcher; a private mesa never shows, nor a public one nobody is at any more; two
«Jugar ya» of one mode meet, never at a mesa everybody left; after the wait the bots nearest in
rating sit down and the partida starts; bad bodies are refused in Spanish and change nothing."""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable, Coroutine
from typing import Any

import httpx
import pytest
import websockets

from fichaflow.core.rules import Mode
from fichaflow.ratings.bots import bot_ratings
from tests.server.kit import Client, ServerProcess, create_mesa, get_json, join


def sync(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """The test's scenario, run in its own event loop."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


class Watcher:
    """A lobby watcher: the list as it got it, kept up to date from the diffs."""

    def __init__(self, server: ServerProcess) -> None:
        self.server = server
        self.mesas: dict[str, dict[str, Any]] = {}
        self.version = -1
        self.kinds: list[str] = []
        self.changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.ws: Any = None

    async def open(self) -> None:
        self.ws = await websockets.connect(self.server.ws_url + "/lobby", max_size=2**24)
        first = json.loads(await self.ws.recv())
        self._apply(first)
        self._task = asyncio.get_running_loop().create_task(self._run())

    def _apply(self, message: dict[str, Any]) -> None:
        self.kinds.append(message["type"])
        if message["type"] == "lobby":
            self.mesas = {m["code"]: m for m in message["mesas"]}
        else:
            assert message["version"] > self.version
            for m in message["mesas"]:
                self.mesas[m["code"]] = m
            for code in message["gone"]:
                self.mesas.pop(code, None)
        self.version = message["version"]
        self.changed.set()

    async def _run(self) -> None:
        async for raw in self.ws:
            self._apply(json.loads(raw))

    async def until(self, condition: Any, timeout: float = 10) -> None:
        async with asyncio.timeout(timeout):
            while not condition(self.mesas):
                self.changed.clear()
                await self.changed.wait()

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        await self.ws.close()


async def quick(server: ServerProcess, **body: Any) -> httpx.Response:
    async with server.http() as http:
        return await http.post("/api/quick", json=body)


@sync
async def test_a_public_mesa_is_listed_and_followed_live(server: ServerProcess) -> None:
    watcher = Watcher(server)
    await watcher.open()
    private = await create_mesa(server, name="Ana", seat=0)
    public = await create_mesa(
        server,
        rules="mano_a_mano",
        name="Luis",
        seat=0,
        options={"public": True, "bot_pause_ms": 0},
    )
    code = public["code"]
    await watcher.until(lambda m: code in m)
    entry = watcher.mesas[code]
    assert private["code"] not in watcher.mesas
    assert entry["rules"]["preset"] == "mano_a_mano" and entry["mode"] == "mano_a_mano"
    assert entry["free"] == 1 and entry["status"] == "waiting" and entry["mirones"] == 0
    assert entry["seats"][0] == {"kind": "human", "name": "Luis", "rating": None}

    # A newcomer asking for the list gets the same (the cached list).
    listed = await get_json(server, "/api/lobby")
    assert {m["code"] for m in listed["mesas"]} >= {code}
    assert private["code"] not in {m["code"] for m in listed["mesas"]}

    # Two mirones come: the count moves.
    mirones = [Client(server, code) for _ in range(2)]
    for m in mirones:
        await m.connect()
    await watcher.until(lambda m: m[code]["mirones"] == 2)

    # A bot in the free chair: no seat free, its rating shown; the partida starts.
    host = Client(server, code, public["token"])
    await host.connect()
    await host.send({"type": "seat_bot", "seat": 1, "bot": "gallo"})
    await watcher.until(lambda m: m[code]["free"] == 0)
    gallo = bot_ratings(Mode.MANO_A_MANO).get("gallo")
    assert watcher.mesas[code]["seats"][1] == {"kind": "bot", "name": "gallo", "rating": gallo}
    await host.send({"type": "start"})
    await watcher.until(lambda m: m[code]["status"] == "playing")

    for c in [*mirones, host]:
        await c.close()
    await watcher.until(lambda m: m[code]["mirones"] == 0)
    assert "lobby_diff" in watcher.kinds
    await watcher.close()


@sync
async def test_two_quick_players_meet_and_start(server: ServerProcess) -> None:
    first = await quick(server, mode="mano_a_mano", name="Rosa", wait_seconds=60)
    assert first.status_code == 201, first.text
    second = await quick(server, mode="mano_a_mano", name="Pedro", wait_seconds=60)
    assert second.status_code == 201, second.text
    a, b = first.json(), second.json()
    assert a["code"] == b["code"] and {a["seat"], b["seat"]} == {0, 1}
    client = Client(server, a["code"], a["token"])
    welcome = await client.connect()
    # Both chairs have people: the partida started at once, no bot sat down.
    assert welcome["mesa"]["status"] == "playing"
    assert [s["kind"] for s in welcome["mesa"]["seats"]] == ["human", "human"]
    # A third player of the mode gets a new mesa, not a chair at a running one.
    third = await quick(server, mode="mano_a_mano", name="Juan", wait_seconds=60)
    assert third.json()["code"] != a["code"]
    await client.close()


@sync
async def test_bots_nearest_in_rating_fill_after_the_wait(server: ServerProcess) -> None:
    made = await quick(server, mode="parejas", name="Carmen", wait_seconds=1)
    assert made.status_code == 201, made.text
    body = made.json()
    client = Client(server, body["code"], body["token"])
    welcome = await client.connect()
    assert welcome["mesa"]["status"] == "waiting" and welcome["mesa"]["options"]["public"]
    start = await client.expect("hand_start", timeout=10)
    assert start["view"]["seat"] == body["seat"]
    mesa = client.log[-2]["mesa"] if client.log[-2]["type"] == "mesa" else None
    state = mesa or (await get_json(server, f"/api/mesas/{body['code']}"))["mesa"]
    bots = [s["bot"] for s in state["seats"] if s["kind"] == "bot"]
    assert len(bots) == 3
    ratings = {b: r for b, r in bot_ratings(Mode.PAREJAS).items()}
    nearest = sorted(ratings, key=lambda b: abs(ratings[b] - 1500))
    # (the offered bots only, nearest a guest's rating first, then the next)
    assert bots[0] in nearest[:3]
    assert all(abs(ratings[b] - 1500) <= max(abs(ratings[x] - 1500) for x in bots) for b in bots)
    await client.close()


@pytest.mark.parametrize(
    "body",
    [
        {"mode": "cuatro", "name": "Ana"},
        {"mode": "parejas", "name": ""},
        {"mode": "parejas", "name": "Ana", "wait_seconds": 0},
        {"mode": "parejas", "name": "Ana", "wait_seconds": 10_000},
        {"mode": "parejas"},
        {"mode": "parejas", "name": "Ana", "rating": 3000},
    ],
)
@sync
async def test_bad_quick_is_refused_in_spanish(server: ServerProcess, body: dict[str, Any]) -> None:
    before = await get_json(server, "/api/lobby")
    answer = await quick(server, **body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["message"] and error["message_en"] and error["message"] != error["message_en"]
    # No mesa was opened (the module's other mesas may play on, or leave, meanwhile).
    after = await get_json(server, "/api/lobby")
    assert {m["code"] for m in after["mesas"]} <= {m["code"] for m in before["mesas"]}


@sync
async def test_a_mesa_joined_through_the_lobby_shows_its_free_seat_gone(
    server: ServerProcess,
) -> None:
    public = await create_mesa(
        server, rules="tres", name="Eva", seat=0, options={"public": True, "bot_pause_ms": 0}
    )
    code = public["code"]
    watcher = Watcher(server)
    await watcher.open()
    await watcher.until(lambda m: code in m and m[code]["free"] == 2)
    await join(server, code, "Toño", 1)
    await watcher.until(lambda m: m[code]["free"] == 1)
    assert watcher.mesas[code]["seats"][1]["name"] == "Toño"
    await watcher.close()


@sync
async def test_a_public_mesa_nobody_is_at_leaves_the_lobby(server: ServerProcess) -> None:
    watcher = Watcher(server)
    await watcher.open()
    # Luis makes a public mesa and never comes to it; Rosa waits at a «Jugar ya» mesa.
    never = await create_mesa(server, name="Luis", seat=0, options={"public": True})
    made = await quick(server, mode="tres", name="Rosa", wait_seconds=120)
    code = made.json()["code"]
    rosa = Client(server, code, made.json()["token"])
    await rosa.connect()
    await watcher.until(lambda m: {code, never["code"]} <= m.keys())

    # Rosa goes: a few seconds later her mesa leaves the list, and «Jugar ya» of her mode no
    # longer seats anybody there (they would wait alone).
    await rosa.close()
    await watcher.until(lambda m: code not in m)
    assert code not in {m["code"] for m in (await get_json(server, "/api/lobby"))["mesas"]}
    other = await quick(server, mode="tres", name="Pedro", wait_seconds=120)
    assert other.status_code == 201 and other.json()["code"] != code
    pedro = Client(server, other.json()["code"], other.json()["token"])
    await pedro.connect()

    # Rosa comes back: her mesa is listed again, with her chair and the free ones.
    back = Client(server, code, made.json()["token"])
    await back.connect()
    await watcher.until(lambda m: code in m)
    assert watcher.mesas[code]["free"] == 2
    assert watcher.mesas[code]["seats"][0] == {"kind": "human", "name": "Rosa", "rating": None}

    # The mesa whose maker never came leaves once its first seconds are over.
    await watcher.until(lambda m: never["code"] not in m, timeout=30)
    assert code in watcher.mesas and other.json()["code"] in watcher.mesas
    for client in (back, pedro):
        await client.close()
    await watcher.close()
