"""A mesa that another server takes: the server that held it closes the page's connection with
1012 (``server.moved``), and the page connects again by itself and is put back in its chair, with
its tiles and the line as they were."""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.kit import TEST_SEED, ServerProcess, free_port
from tests.web.driver import Player, create_mesa, start
from tests.web.test_reconnect import wait_for_my_turn


def moves(database: Path, code: str) -> int:
    with contextlib.closing(sqlite3.connect(database)) as db:
        (count,) = db.execute("SELECT count(*) FROM moves WHERE mesa = ?", (code,)).fetchone()
    return int(count)


@pytest.mark.slow  # a browser, a partida and a lease renewal: about 20 s
def test_the_page_follows_its_mesa_when_the_lease_is_taken(
    tmp_path: Path, new_page: Callable[..., Any]
) -> None:
    database = tmp_path / "moved.sqlite3"
    # Leases of 3 s, renewed every second: the server finds out within a second.
    # A server that says where its peers reach it (--advertise) is one of a cluster's: its
    # joins and welcomes name it, for the page's WebSocket to name it to the balancer.
    port = free_port()
    server = ServerProcess(
        f"sqlite:///{database}",
        port=port,
        seed=TEST_SEED,
        options=[
            "--lease-seconds",
            "3",
            "--node",
            "uno",
            "--advertise",
            f"http://127.0.0.1:{port}",
        ],
    )
    server.start()
    try:
        page = new_page(390, 844)
        sockets: list[str] = []
        page.on("websocket", lambda ws: sockets.append(ws.url))
        code = create_mesa(page, server.url, "Ana", "mano_a_mano", 100, {1: "tirafichas"})
        # The page's WebSocket names the mesa's server, as its creation said (a cluster's
        # balancer sends it there); a stale name is replaced by the one its welcome says.
        assert sockets[-1].endswith("/ws?node=uno")
        page.evaluate(f"localStorage.setItem('fichaflow.node.{code}', JSON.stringify('otro'))")
        page.reload()
        expect(page.locator(".chair-ring")).to_be_visible()
        assert sockets[-1].endswith("/ws?node=otro")
        start(page)
        me = Player(page)
        wait_for_my_turn(me)  # nothing moves while it is this seat's turn
        tiles, line = sorted(me.hand()), me.line()

        # Another server takes the mesa's lease (a new token), then lets it go at once.
        # This server drops the mesa and tells the page, which comes back by itself on a new
        # WebSocket: waited for as such, since until the close arrives the old one still shows
        # everything as it was (the toast comes first, on the old socket).
        with page.expect_websocket(timeout=20_000) as reconnected:
            with contextlib.closing(sqlite3.connect(database)) as db, db:
                (fence,) = db.execute("SELECT fence FROM mesas WHERE code = ?", (code,)).fetchone()
                db.execute(
                    "UPDATE mesas SET owner = 'otro', fence = fence + 1, lease_until = 0 "
                    "WHERE code = ?",
                    (code,),
                )
            expect(page.locator(".toast")).to_contain_text("se vuelve a conectar sola")
        # (named as the welcome after the reload said)
        assert reconnected.value.url.endswith("/ws?node=uno")
        expect(page.locator(".connection-banner")).to_have_count(0, timeout=20_000)
        expect(page.locator(".hand-tile")).to_have_count(len(tiles))
        assert sorted(me.hand()) == tiles and me.line() == line
        with contextlib.closing(sqlite3.connect(database)) as db:
            owner, now = db.execute(
                "SELECT owner, fence FROM mesas WHERE code = ?", (code,)
            ).fetchone()
        assert owner != "otro" and now == fence + 2  # taken back, by a new token
        assert "another server took its lease" in server.log.read_text()

        # And the partida goes on from the page: its next move is stored.
        stored = moves(database, code)
        wait_for_my_turn(me)
        assert me.act() is not None
        assert moves(database, code) > stored
        assert page.js_errors == []
    finally:
        server.stop()
