"""A page at a mesa whose server loses its Redis: the table says «Reconectando…» (in English
after the language toggle) while the bots' turns wait, the player's own move is still taken and
kept, and when the same redis-server comes back the page recovers by itself: the banner goes,
the bot plays, the player is still in his chair and every move is stored once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from fichaflow.server import wire
from tests.browser import browser  # noqa: F401 (a fixture)
from tests.cluster.kit import RedisServer, WorkerProcess, needs_redis
from tests.server.kit import TEST_SEED, ServerProcess, contiguous, stored_moves
from tests.server.test_wire_types import conforms
from tests.web.driver import Player, create_mesa, start

pytestmark = [needs_redis, pytest.mark.slow]  # a browser, a Redis stopped and started: ~30 s


def wait_for_my_turn(player: Player) -> None:
    while not player.page.locator(".my-hand.my-turn").count():
        player.page.wait_for_timeout(50)


def test_the_table_says_reconnecting_while_redis_is_away_and_recovers(
    browser: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    database = f"sqlite:///{tmp_path / 'mesa.sqlite3'}"
    redis = RedisServer()
    redis.start()
    try:
        with (
            WorkerProcess(redis.url) as worker,
            ServerProcess(database, seed=TEST_SEED, options=["--redis", redis.url]) as server,
        ):
            worker.start(redis.client())
            context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
            context.set_default_timeout(20_000)
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            code = create_mesa(page, server.url, "Ana", "mano_a_mano", 100, {1: "tirapuntos"})
            start(page)
            me = Player(page)
            wait_for_my_turn(me)
            me.act()  # the bot answers through the worker: Redis works
            wait_for_my_turn(me)
            expect(page.locator(".connection-banner")).to_have_count(0)

            redis.stop()
            banner = page.locator(".connection-banner")
            expect(banner).to_contain_text("Reconectando")
            page.locator("[data-key=open-mesa]").click()  # the mesa's panel has the toggle
            page.get_by_role("button", name="Switch to English").click()
            page.get_by_role("button", name="Close", exact=True).first.click()
            expect(banner).to_contain_text("Reconnecting")
            # the player's own move is taken meanwhile; the bot's turn waits for Redis
            for _ in range(30):  # (a draw leaves the turn here: act until it passes on)
                if not page.locator(".my-hand.my-turn").count():
                    break
                me.act()
                page.wait_for_timeout(200)
            page.wait_for_timeout(1500)
            expect(banner).to_contain_text("Reconnecting")
            assert page.locator(".my-hand.my-turn").count() == 0
            moves_during = len(stored_moves(database, code))
            # what the page was told, as any client hears it on saying hello meanwhile
            with connect(server.ws_url) as ws:
                ws.send(json.dumps({"type": "hello", "code": code}))
                assert json.loads(ws.recv(10))["type"] == "welcome"
                status = json.loads(ws.recv(10))
            conforms(status, wire.Status, "status")
            assert status == {"type": "status", "ok": False, "waiting_for": ["redis"]}

            redis.start()  # the same port, nothing in it
            expect(banner).to_have_count(0, timeout=30_000)
            wait_for_my_turn(me)  # the bot played: the partida goes on by itself
            assert page.locator(".my-hand").count() == 1, "the player kept his chair"
            moves = stored_moves(database, code)
            assert len(moves) > moves_during and contiguous(moves)
            assert errors == []
            context.close()
    finally:
        redis.stop()
