"""The server's edge, as a stranger meets it: which forwarded headers it believes, the headers
every page carries, which origins may use it, and how long an idle connection may stay.

Each test runs a real ``fichaflow serve`` with the options it is about (small limits, so that
they are quick) and talks to it over HTTP and WebSocket from 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.typing import Origin

from tests.server.kit import TEST_SEED, Client, ServerProcess, create_mesa, is_spanish_error

BODY = {"rules": "mano_a_mano", "seats": [None, None], "name": "Ana", "seat": 0}
EVIL = Origin("http://evil.example")
SHEET = {"name": "Patio", "rules": "dominicana", "players": ["Ana", "Beto", "Carla", "Diego"]}
TRANQUE = {"type": "hand", "end": "tranque", "seat": 0, "pips": [8, 11, 7, 14], "leader": 0}


def serve(tmp_path: Path, *options: str, http_limit: int = 0) -> ServerProcess:
    return ServerProcess(
        f"sqlite:///{tmp_path / 'edge.sqlite3'}",
        http_limit=http_limit,
        seed=TEST_SEED,
        options=options,
    )


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with serve(tmp_path) as process:
        yield process


def new_mesa(server: ServerProcess) -> dict[str, Any]:
    return asyncio.run(create_mesa(server, **BODY))


# -- 4. forwarded headers are believed only from named proxies ---------------------------------


def test_a_client_cannot_pass_for_many_addresses_with_x_forwarded_for(tmp_path: Path) -> None:
    """By default no proxy is trusted: each request from 127.0.0.1 counts against 127.0.0.1,
    whatever X-Forwarded-For it claims (uvicorn alone would believe it from 127.0.0.1)."""
    with serve(tmp_path, http_limit=2) as server:
        answers = [
            httpx.post(
                f"{server.url}/api/mesas",
                json=BODY,
                headers={"X-Forwarded-For": f"203.0.113.{n}"},
                timeout=10,
            )
            for n in range(4)
        ]
        assert [a.status_code for a in answers] == [201, 201, 429, 429]
        assert httpx.get(f"{server.url}/api/health").json()["mesas"] == 2


def test_a_named_proxy_is_believed_about_its_clients(tmp_path: Path) -> None:
    """Behind a balancer named with --forwarded-allow-ips, each player is counted by the address
    the balancer forwards, not by the balancer's own."""
    with serve(tmp_path, "--forwarded-allow-ips", "127.0.0.1", http_limit=2) as server:

        def post(client: str) -> int:
            headers = {"X-Forwarded-For": client}
            return httpx.post(
                f"{server.url}/api/mesas", json=BODY, headers=headers, timeout=10
            ).status_code

        assert [post(f"203.0.113.{n}") for n in range(4)] == [201] * 4
        assert [post("198.51.100.7") for _ in range(3)] == [201, 201, 429]


def test_a_wrong_proxy_address_is_one_clear_line(tmp_path: Path) -> None:
    server = serve(tmp_path, "--forwarded-allow-ips", "10.0.0.300")
    with pytest.raises(RuntimeError, match=r"10\.0\.0\.300"):
        server.start()
    server.stop()


# -- 5. security headers on every page ---------------------------------------------------------


def test_every_page_is_locked_down(server: ServerProcess) -> None:
    code = new_mesa(server)["code"]
    sheet = httpx.post(f"{server.url}/api/anotador/mesas", json=SHEET).json()
    entry = {"key": "edge-test-1", "action": TRANQUE}
    posted = httpx.post(f"{server.url}/api/anotador/mesas/{sheet['code']}/actions", json=entry)
    assert posted.status_code == 200, posted.text
    pages = [
        "/",
        f"/m/{code}",
        "/anotador/",
        "/repaso/",
        f"/api/anotador/export/{sheet['code']}/1.html",
    ]
    for path in pages:
        page = httpx.get(f"{server.url}{path}", follow_redirects=True)
        assert page.status_code == 200, path
        assert page.headers["content-type"].startswith("text/html"), path
        policy = dict(
            part.partition(" ")[::2] for part in page.headers["content-security-policy"].split("; ")
        )
        assert policy["script-src"] == "'self'", path  # no inline script, no eval
        assert "'unsafe-inline'" not in policy["style-src"], path
        assert policy["frame-ancestors"] == "'none'", path
        assert policy["object-src"] == "'none'", path
        assert page.headers["x-content-type-options"] == "nosniff", path
        assert page.headers["x-frame-options"] == "DENY", path
        assert page.headers["referrer-policy"] == "same-origin", path
    answer = httpx.get(f"{server.url}/api/health")
    assert answer.headers["x-content-type-options"] == "nosniff"
    # FastAPI's OpenAPI page runs an inline script from a CDN: it alone has a policy allowing it.
    docs = httpx.get(f"{server.url}/api/docs")
    assert docs.status_code == 200 and "swagger-ui" in docs.text
    assert "'unsafe-inline'" in docs.headers["content-security-policy"]
    assert docs.headers["x-frame-options"] == "DENY"


# -- 6. other origins may not use the server ---------------------------------------------------


async def _hello(ws: Any, code: str) -> dict[str, Any]:
    await ws.send(json.dumps({"type": "hello", "code": code, "token": None}))
    return dict(json.loads(await ws.recv()))


def test_a_websocket_from_another_origin_is_refused(server: ServerProcess) -> None:
    code = new_mesa(server)["code"]

    async def scenario() -> None:
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(server.ws_url, origin=EVIL)
        assert refused.value.response.status_code == 403
        error = json.loads(refused.value.response.body or b"{}")["error"]
        assert is_spanish_error(error, "server.cross_origin")
        # The server's own pages, and clients that send no Origin (bots, scripts), are welcome.
        own = Origin(server.url.replace("127.0.0.1", "localhost"))
        for origin in (Origin(server.url), None):
            async with websockets.connect(server.ws_url, origin=origin) as ws:
                assert (await _hello(ws, code))["type"] == "welcome"
        # Its own origin is the address the page was opened at, whatever name that used.
        async with websockets.connect(
            f"ws://localhost:{server.port}/ws",
            origin=own,
        ) as ws:
            assert (await _hello(ws, code))["type"] == "welcome"
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(server.ws_url, origin=own)

    asyncio.run(scenario())


def test_an_allowed_origin_may_use_the_server(tmp_path: Path) -> None:
    friends = "https://domino.example"
    with serve(tmp_path, "--allowed-origin", friends) as server:
        code = new_mesa(server)["code"]

        async def scenario() -> None:
            async with websockets.connect(server.ws_url, origin=Origin(friends)) as ws:
                assert (await _hello(ws, code))["type"] == "welcome"
            with pytest.raises(websockets.InvalidStatus):
                await websockets.connect(server.ws_url, origin=EVIL)

        asyncio.run(scenario())
        joined = httpx.post(
            f"{server.url}/api/mesas/{code}/join",
            json={"name": "Beto"},
            headers={"Origin": friends},
        )
        assert joined.status_code == 201


def test_a_cross_site_post_changes_nothing(server: ServerProcess) -> None:
    code = new_mesa(server)["code"]
    join = f"{server.url}/api/mesas/{code}/join"
    body = json.dumps({"name": "Intruso", "seat": 1})
    # What a foreign page's form or no-cors fetch can send: text/plain, its own Origin.
    refusals = [
        ({"Content-Type": "text/plain", "Origin": EVIL}, 403, "server.cross_origin"),
        ({"Content-Type": "application/json", "Origin": EVIL}, 403, "server.cross_origin"),
        ({"Content-Type": "application/json", "Origin": "null"}, 403, "server.cross_origin"),
        (
            {"Content-Type": "text/plain", "Sec-Fetch-Site": "cross-site"},
            403,
            "server.cross_origin",
        ),
        ({"Content-Type": "text/plain"}, 415, "server.json_only"),
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "server.json_only"),
        ({"Content-Type": "multipart/form-data; boundary=x"}, 415, "server.json_only"),
    ]
    for headers, status, error in refusals:
        answer = httpx.post(join, content=body, headers=headers)
        assert answer.status_code == status, (headers, answer.text)
        assert is_spanish_error(answer.json()["error"], error), headers
    for path in ("/api/mesas", "/api/anotador/mesas", "/api/repaso"):
        answer = httpx.post(f"{server.url}{path}", content=b"{}", headers={"Origin": EVIL})
        assert answer.status_code == 403, path
    mesa = httpx.get(f"{server.url}/api/mesas/{code}").json()["mesa"]
    assert mesa["seats"][1]["kind"] == "empty" and mesa["queue"] == []
    assert httpx.get(f"{server.url}/api/health").json()["mesas"] == 1
    # The server's own page, and JSON from a script, are served.
    same = {"Content-Type": "application/json; charset=utf-8", "Origin": server.url}
    assert httpx.post(join, content=body, headers=same).status_code == 201
    script = {"Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"}
    assert httpx.post(join, json={"name": "Carla"}, headers=script).status_code == 201


# -- 7. idle connections -----------------------------------------------------------------------


def test_a_connection_that_never_says_hello_is_closed(tmp_path: Path) -> None:
    with serve(tmp_path, "--hello-timeout", "0.5") as server:
        code = new_mesa(server)["code"]

        async def scenario() -> None:
            greeted = Client(server, code)
            await greeted.connect()
            async with websockets.connect(server.ws_url) as silent:
                # A ping is answered, but it is not a hello: the clock keeps running.
                await silent.send(json.dumps({"type": "ping", "ref": 1}))
                assert json.loads(await silent.recv())["type"] == "pong"
                error = json.loads(await asyncio.wait_for(silent.recv(), 30))
                assert is_spanish_error(error, "server.hello_timeout")
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(silent.recv(), 30)
                assert closed.value.rcvd is not None
                assert closed.value.rcvd.code == 1008
                assert closed.value.rcvd.reason == "server.hello_timeout"
            # The connection that said hello, older than the silent one, is still open.
            await greeted.ping()
            await greeted.close()

        asyncio.run(scenario())


def test_one_address_may_hold_only_so_many_websockets(tmp_path: Path) -> None:
    with serve(tmp_path, "--ws-per-address", "2") as server:
        code = new_mesa(server)["code"]

        async def scenario() -> None:
            first, second = Client(server, code), Client(server, code)
            await first.connect()
            await second.connect()
            async with websockets.connect(server.ws_url) as third:
                error = json.loads(await asyncio.wait_for(third.recv(), 30))
                assert is_spanish_error(error, "server.too_many_connections")
                assert "2" in error["message"]
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(third.recv(), 30)
                assert closed.value.rcvd is not None
                assert closed.value.rcvd.code == 1008
                assert closed.value.rcvd.reason == "server.too_many_connections"
            await first.ping()
            await second.ping()
            # One leaves: its place is free again (once the server has seen it go).
            await first.close()
            async with asyncio.timeout(30):
                while True:
                    async with websockets.connect(server.ws_url) as again:
                        if (await _hello(again, code))["type"] == "welcome":
                            break
            await second.close()

        asyncio.run(scenario())
