"""The page shows who watches (#13) from the small ``mirones`` messages the server sends when a
mirón comes or goes: in the waiting room the first few by name and how many more, at the table
how many, however many they are."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from websockets.sync.client import ClientConnection, connect

from tests.server.kit import ServerProcess
from tests.web.driver import create_mesa, start


@contextmanager
def watching(server: ServerProcess, code: str, count: int) -> Iterator[list[ClientConnection]]:
    """``count`` anonymous mirones at the mesa, each welcomed, gone at the end."""
    with ExitStack() as stack:
        sockets = [stack.enter_context(connect(server.ws_url)) for _ in range(count)]
        for socket in sockets:
            socket.send(json.dumps({"type": "hello", "code": code}))
        for socket in sockets:
            assert json.loads(socket.recv(timeout=20))["type"] == "welcome"
        yield sockets


@pytest.mark.slow  # two browsers; the server's mirones tests stay quick
def test_the_page_shows_how_many_watch_and_the_first_by_name(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    host = new_page(1024, 768)
    code = create_mesa(host, web_server.url, "Ana", "mano_a_mano", 10, {1: "tirafichas"})
    mirones = host.locator(".mirones")
    expect(mirones).to_have_text("Mirones: nadie")
    # Beto joins the queue, then leaves it to watch: a mirón with a name.
    joined = httpx.post(f"{web_server.url}/api/mesas/{code}/join", json={"name": "Beto"}).json()
    with connect(web_server.ws_url) as beto:
        beto.send(json.dumps({"type": "hello", "code": code, "token": joined["token"]}))
        beto.send(json.dumps({"type": "unqueue"}))
        expect(mirones).to_have_text("Mirones: Beto")
        with watching(web_server, code, 12):
            # The server names ten at most; the page counts the rest, without a name.
            expect(mirones).to_have_text("Mirones: Beto · 12 sin nombre")
        expect(mirones).to_have_text("Mirones: Beto")

        start(host)
        around = host.locator("[data-key=around]")
        expect(around).to_have_text("Mirones: 1")
        with watching(web_server, code, 30):
            expect(around).to_have_text("Mirones: 31")
        expect(around).to_have_text("Mirones: 1")
    expect(around).to_have_count(0)
    assert host.js_errors == []
