"""A move's message brings the turns it added, not the whole history, and the page rebuilds the
history from them. Should one never reach the page (it cannot on one WebSocket; here the test
drops it on the way), the next move shows turns the page never got: it says hello again, and the
welcome puts the whole table back, the history without a hole."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from fichaflow.core.tiles import name, tile_of
from tests.server.kit import ServerProcess
from tests.web.driver import Player, create_mesa, start

pytestmark = pytest.mark.slow  # a hand in the browser

BOTS = {1: "tirafichas", 2: "tirafichas", 3: "tirafichas"}


def test_a_move_that_never_arrived_is_made_good_by_a_new_welcome(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    page = new_page(1280, 800)
    hellos: list[dict[str, Any]] = []  # said after the drop
    dropped: list[dict[str, Any]] = []
    told: list[dict[str, Any]] = []  # what the page was sent, in order

    def route(socket: Any) -> None:
        server = socket.connect_to_server()

        def from_page(text: str) -> None:
            if json.loads(text).get("type") == "hello" and dropped:
                hellos.append(json.loads(text))
            server.send(text)

        def from_server(text: str) -> None:
            message = json.loads(text)
            # the first move of seat 1 (a bot: seat 2 moves next, whatever the page knows)
            if message["type"] == "move" and message["move"]["seat"] == 1 and not dropped:
                dropped.append({**message, "told_before": len(told)})
                return
            told.append(message)
            socket.send(text)

        socket.on_message(from_page)
        server.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws(\?|$)"), route)
    create_mesa(page, web_server.url, "Ana", "venezuela", 100, BOTS)
    start(page)
    me = Player(page)
    deadline = time.monotonic() + 60
    while not (hellos and page.locator(".my-hand.my-turn").count()):
        assert time.monotonic() < deadline, f"hellos {len(hellos)}, dropped {len(dropped)}"
        if not dropped and page.locator(".my-hand.my-turn").count():
            me.act()  # (Ana leads the first hand of the tests' deal)
        page.wait_for_timeout(50)

    # The page asked again after the move it missed, and a welcome answered it.
    assert dropped[0]["view"]["hand_number"] == 1
    since = [m["type"] for m in told[dropped[0]["told_before"] :]]
    assert len(hellos) == 1 and since.count("welcome") == 1
    assert since.index("move") < since.index("welcome")  # noticed at the next move
    # Ana's turn (nothing moves until she plays): the page shows what the server last said, the
    # whole line and every turn of the hand, the dropped move's included.
    last = next(m for m in reversed(told) if m.get("view"))
    view = last["view"]
    turns = last["turns_from"] + len(last["turns"]) if last["type"] == "move" else None
    turns = len(view["history"]) if turns is None else turns
    assert turns > dropped[0]["turns_from"]
    screen = page.locator(".table-screen")
    assert screen.get_attribute("data-turns") == str(turns)
    assert sorted(me.line()) == sorted(name(tile_of(a, b)) for a, b in view["line"])
    # and plays on from there
    assert me.act() in ("play", "pass")
    assert page.js_errors == []
