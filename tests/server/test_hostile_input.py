"""Hostile input at every door of a real server, on SQLite and on PostgreSQL: JSON nested past
reason, numbers past 64 bits, codes with a NUL in them, bodies far over the limit. Each gets its
documented error code with a Spanish text and a 4xx (never a 5xx), the WebSocket answers with an
error and stays open, and nothing changes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.server.kit import (
    Client,
    ServerProcess,
    create_mesa,
    get_json,
    is_spanish_error,
)

DEEP = "[" * 1500 + "]" * 1500
"""Valid JSON of 3000 bytes (under every body limit) nested deeper than Python's parser goes."""
BAD_CODES = ["ab%00cd", "%00", "ab%01cd", "a%20b", "%C3%B1and%C3%BA", "x" * 40]
"""Mesa codes no server ever made: control characters, a space, letters outside the alphabet,
too long. (In a path, percent-encoded.)"""
PLAYERS = ["Ana", "Beto", "Carla", "Diego"]


def refused(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, (response.request.url, response.text)
    error: dict[str, Any] = response.json()["error"]
    assert is_spanish_error(error, code), error
    return error


async def anotador_mesa(server: ServerProcess) -> dict[str, Any]:
    body = {"name": "Patio", "rules": "dominicana", "players": PLAYERS}
    async with server.http() as http:
        response = await http.post("/api/anotador/mesas", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


async def snapshot(server: ServerProcess, code: str, sheet: str) -> tuple[Any, ...]:
    """What a refused request must leave as it was: the count of mesas in memory, a game mesa
    as anybody sees it, an anotador sheet and its version."""
    health = await get_json(server, "/api/health")
    mesa = await get_json(server, f"/api/mesas/{code}")
    anotador = await get_json(server, f"/api/anotador/mesas/{sheet}")
    return health["mesas"], mesa, anotador["version"], anotador["state"]


async def request_each(
    server: ServerProcess, method: str, path: str, **kwargs: Any
) -> httpx.Response:
    """One request on a connection of its own (a refused request must not spoil the next)."""
    async with server.http() as http:
        return await http.request(method, path, **kwargs)


def test_json_nested_past_reason_is_refused_by_every_endpoint(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(server, name="Ana", seat=0)
        code = created["code"]
        sheet = (await anotador_mesa(server))["code"]
        before = await snapshot(server, code, sheet)
        for path in [
            "/api/mesas",
            f"/api/mesas/{code}/join",
            f"/api/mesas/{code}/pista",
            "/api/repaso",
            "/api/anotador/mesas",
            f"/api/anotador/mesas/{sheet}/actions",
        ]:
            for body in (DEEP, '{"rules": ' + "[" * 40 + "]" * 40 + "}"):
                response = await request_each(server, "POST", path, content=body)
                refused(response, 400, "server.too_deep")
        assert await snapshot(server, code, sheet) == before

    asyncio.run(scenario())


def test_bad_websocket_messages_get_an_error_and_keep_the_connection(
    server: ServerProcess,
) -> None:
    async def scenario() -> None:
        created = await create_mesa(server, name="Ana", seat=0)
        code, token = created["code"], created["token"]
        sheet = (await anotador_mesa(server))["code"]
        ana = Client(server, code, token)
        await ana.connect()
        before = await snapshot(server, code, sheet)
        cases = [
            (DEEP, "server.too_deep"),
            (json.dumps({"type": "ping", "ref": 2**64}), "server.bad_field"),
            (json.dumps({"type": "ping", "ref": -(2**70)}), "server.bad_field"),
            (json.dumps({"type": "ping", "ref": "r" * 65}), "server.bad_field"),
            (json.dumps({"type": "shout", "ref": 2**64}), "server.unknown_type"),
            (json.dumps({"type": "sit", "seat": 2**64, "ref": 2**64}), "server.bad_field"),
            (json.dumps({"type": "hello", "code": "ab\x00cd"}), "server.no_mesa"),
            (json.dumps({"type": "hello", "code": "ab\x00cd", "token": token}), "server.no_mesa"),
            (json.dumps({"type": "hello", "code": "ñandú"}), "server.no_mesa"),
        ]
        for text, expected in cases:
            await ana.send(text)
            error = await ana.expect("error")
            assert is_spanish_error(error, expected), (text[:60], error)
            assert error["ref"] is None
            await ana.ping()  # still open, still the same mesa's connection
        # a good ref, at the edge of what every client can hold, comes back as it went
        await ana.send({"type": "ping", "ref": 2**53 - 1})
        await ana.expect("pong", where=lambda m: m["ref"] == 2**53 - 1)
        assert not ana.closed.is_set()
        assert await snapshot(server, code, sheet) == before
        await ana.close()

    asyncio.run(scenario())


def test_a_partida_number_past_any_partida_is_not_found(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(server, name="Ana", seat=0)
        code = created["code"]
        sheet = (await anotador_mesa(server))["code"]
        before = await snapshot(server, code, sheet)
        for number in [str(10**30), str(2**63), "-1", "0", "1.5", "uno", "%C2%B2", "1e3"]:
            response = await request_each(
                server, "GET", f"/api/mesas/{code}/partidas/{number}/record"
            )
            refused(response, 404, "server.no_partida_number")
        for number in ["0", "1", "2"]:  # no partida yet: not even the current number's record
            response = await request_each(
                server, "GET", f"/api/mesas/{code}/partidas/{number}/hands/1/repaso"
            )
            refused(response, 404, "server.no_partida_number")
        # a mirón's "after" that is no small whole number is no version to wait for
        watch = (await get_json(server, f"/api/anotador/mesas/{sheet}"))["watch"]
        for after in ["%C2%B2", "9" * 5000]:
            response = await request_each(
                server, "GET", f"/api/anotador/watch/{watch}?after={after}"
            )
            assert response.status_code == 200, response.text
        assert await snapshot(server, code, sheet) == before

    asyncio.run(scenario())


def test_codes_no_server_makes_are_refused_before_the_database(server: ServerProcess) -> None:
    async def scenario() -> None:
        created = await create_mesa(server, name="Ana", seat=0)
        code = created["code"]
        sheet = (await anotador_mesa(server))["code"]
        before = await snapshot(server, code, sheet)
        game: list[tuple[str, str, dict[str, Any]]] = []
        anotador: list[tuple[str, str, dict[str, Any]]] = []
        for bad in BAD_CODES:
            game += [
                ("GET", f"/api/mesas/{bad}", {}),
                ("GET", f"/api/mesas/{bad}/partidas/1/record", {}),
                ("GET", f"/api/mesas/{bad}/partidas/1/hands/1/repaso", {}),
                ("POST", f"/api/mesas/{bad}/join", {"json": {"name": "Eva"}}),
                ("POST", f"/api/mesas/{bad}/pista", {"json": {"token": created["token"]}}),
            ]
            action = {"key": "abcdefgh1234", "action": {"type": "undo"}}
            anotador += [
                ("GET", f"/api/anotador/mesas/{bad}", {}),
                ("POST", f"/api/anotador/mesas/{bad}/actions", {"json": action}),
                ("GET", f"/api/anotador/watch/{bad}", {}),
                ("GET", f"/api/anotador/export/{bad}/1.csv", {}),
            ]
        for method, path, kwargs in game:
            response = await request_each(server, method, path, **kwargs)
            error = refused(response, 404, "server.no_mesa")
            assert "\x00" not in error["message"]
        for method, path, kwargs in anotador:
            response = await request_each(server, method, path, **kwargs)
            error = refused(response, 404, "anotador.mesa_not_found")
            assert "\x00" not in error["message"]
        assert await snapshot(server, code, sheet) == before

    asyncio.run(scenario())


# -- bodies over the limit ----------------------------------------------------------------------

LIMITS = [
    ("/api/mesas", 4096, "server.too_big_http"),
    ("/api/repaso", 256 * 1024, "review.too_big"),
    ("/api/anotador/mesas", 8192, "server.too_big_http"),
]


async def answer_to(server: ServerProcess, head: bytes, body: bytes) -> tuple[int, dict[str, Any]]:
    """Send a request's head and the start of its body, and nothing more: the answer must come
    while the body is still open (a server that waited for the rest would never answer)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    try:
        writer.write(head + body)
        await writer.drain()
        async with asyncio.timeout(20):
            status_line = await reader.readline()
            headers: dict[str, str] = {}
            while (line := await reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            content = await reader.readexactly(int(headers["content-length"]))
    finally:
        writer.close()
    return int(status_line.split()[1]), json.loads(content)


def head(path: str, framing: str) -> bytes:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        f"{framing}\r\n\r\n"
    ).encode()


@pytest.mark.parametrize(("path", "limit", "code"), LIMITS)
def test_a_body_declared_over_the_limit_is_refused_before_it_is_sent(
    server: ServerProcess, path: str, limit: int, code: str
) -> None:
    status, answer = asyncio.run(answer_to(server, head(path, "Content-Length: 50000000"), b"{"))
    assert status == 413
    assert is_spanish_error(answer["error"], code), answer


@pytest.mark.parametrize(("path", "limit", "code"), LIMITS)
def test_a_chunked_body_is_refused_as_soon_as_it_passes_the_limit(
    server: ServerProcess, path: str, limit: int, code: str
) -> None:
    chunk = b" " * (limit + 1)
    framed = b"%x\r\n%s\r\n" % (len(chunk), chunk)  # and no last chunk: the body goes on
    status, answer = asyncio.run(
        answer_to(server, head(path, "Transfer-Encoding: chunked"), framed)
    )
    assert status == 413
    assert is_spanish_error(answer["error"], code), answer


def test_a_client_that_sends_its_whole_big_body_reads_the_refusal(server: ServerProcess) -> None:
    async def scenario() -> None:
        sheet = (await anotador_mesa(server))["code"]
        created = await create_mesa(server, name="Ana", seat=0)
        before = await snapshot(server, created["code"], sheet)

        async def stream() -> AsyncIterator[bytes]:
            for _ in range(16):
                yield b" " * 65536

        for path, _limit, code in LIMITS:
            sized = await request_each(server, "POST", path, content=b" " * (1 << 20))
            refused(sized, 413, code)
            chunked = await request_each(server, "POST", path, content=stream())
            refused(chunked, 413, code)
        assert await snapshot(server, created["code"], sheet) == before

    asyncio.run(scenario())
