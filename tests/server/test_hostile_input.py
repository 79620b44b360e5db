"""Bodies far over the limit, at every service of a real server, on SQLite and on PostgreSQL:
each is refused with its documented error code, a Spanish text and 413, as soon as the server
can tell (before reading a body declared too long, as soon as a chunked one passes the limit),
and nothing changes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.server.kit import ServerProcess, create_mesa, get_json, is_spanish_error

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
