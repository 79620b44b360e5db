"""The public lobby on the home page (#16): two browsers pressing «Jugar ya» in one mode meet at
the same mesa, the second sees the first's mesa listed live before it joins, and the partida
starts with the two of them; alone, after the wait the player chose, the bots sit down and the
partida starts. A newcomer's home page lists every open public mesa as the lobby has it: rules in
words, free chairs, who sits (a bot with its rating), mirones, waiting or playing (the docs'
picture of the lobby)."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from playwright.sync_api import expect

from fichaflow.core.rules import Mode
from fichaflow.ratings.bots import bot_ratings
from tests.server.kit import Client, ServerProcess, create_mesa, join

T = TypeVar("T")


def quick_play(page: Any, name: str, mode: str, wait: int) -> None:
    page.get_by_label("Cómo te llaman").fill(name)
    page.get_by_label("Modalidad").select_option(mode)
    page.get_by_label("Esperar a otros jugadores").select_option(str(wait))
    page.get_by_role("button", name="Jugar ya").click()


def test_two_browsers_meet_through_jugar_ya(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    rosa, pedro = new_page(1024, 768), new_page(390, 844)
    pedro.goto(f"{web_server.url}/")
    expect(pedro.locator("#public-list")).to_contain_text("No hay mesas públicas")
    rosa.goto(f"{web_server.url}/")
    quick_play(rosa, "Rosa", "mano_a_mano", 40)
    expect(rosa.locator(".quick-wait")).to_contain_text("40 s")
    # Pedro's lobby shows Rosa's mesa as it opens: its rules, one free chair, her rating.
    listed = pedro.locator(".sala-mesa")
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text("Mano a mano")
    expect(listed).to_contain_text("1 silla libre")
    expect(listed).to_contain_text("Rosa (puntuación provisional)")
    quick_play(pedro, "Pedro", "mano_a_mano", 10)
    # The same mesa, both seated, the partida under way with no bot.
    for page in (rosa, pedro):
        expect(page.locator(".my-hand")).to_be_visible()
    assert rosa.url == pedro.url and re.search(r"/m/[\w-]+$", rosa.url)
    assert not rosa.js_errors and not pedro.js_errors


@pytest.mark.slow  # ten seconds of waiting for nobody
def test_alone_the_bots_fill_the_chairs_after_the_wait(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    page = new_page(1024, 768)
    page.goto(f"{web_server.url}/")
    quick_play(page, "Carmen", "parejas", 10)
    expect(page.locator(".chair-ring")).to_be_visible()
    expect(page.locator(".quick-wait")).to_contain_text("10 s")
    expect(page.locator(".my-hand")).to_be_visible(timeout=25_000)
    assert not page.js_errors


class Loop:
    """An event loop in a thread of its own, for the WebSocket clients that stay at their mesas
    while the browser looks (a public mesa nobody is at leaves the lobby)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(60)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


@pytest.fixture
def loop() -> Iterator[Loop]:
    running = Loop()
    yield running
    running.stop()


async def public_mesas(server: ServerProcess) -> list[Client]:
    """Four public mesas with people at them: a parejas mesa with two players and three mirones,
    a de a tres and a mano a mano mesa with their hosts, and a Dominican one playing with bots
    and a mirón. The clients returned keep them there."""
    clients: list[Client] = []

    async def host(rules: str, name: str) -> tuple[dict[str, Any], Client]:
        mesa = await create_mesa(server, rules=rules, name=name, seat=0, options={"public": True})
        client = Client(server, mesa["code"], mesa["token"])
        await client.connect()
        clients.append(client)
        return mesa, client

    venezuela, _ = await host("venezuela", "Yusmary")
    chucho = await join(server, venezuela["code"], "Chucho", 1)
    clients.append(Client(server, venezuela["code"], chucho["token"]))
    clients += [Client(server, venezuela["code"]) for _ in range(3)]
    await host("tres", "Wilmer")
    await host("mano_a_mano", "Rosa")
    dominicana, ramon = await host("dominicana", "Ramón")
    clients.append(Client(server, dominicana["code"]))
    for client in clients:
        if client.ws is None:
            await client.connect()
    for seat, bot in ((1, "gallo"), (2, "jugador"), (3, "gallo")):
        await ramon.send({"type": "seat_bot", "seat": seat, "bot": bot})

        def seated(m: dict[str, Any], s: int = seat) -> bool:
            return bool(m["mesa"]["seats"][s]["kind"] == "bot")

        await ramon.expect("mesa", where=seated)
    await ramon.send({"type": "start"})
    await ramon.expect("hand_start")
    return clients


def test_a_newcomer_sees_the_open_public_mesas_in_words(
    web_server: ServerProcess, new_page: Callable[..., Any], loop: Loop, shots: Path
) -> None:
    clients = loop.run(public_mesas(web_server))
    try:
        page = new_page(1024, 1400)
        page.goto(f"{web_server.url}/")
        listed = page.locator(".sala-mesa")
        expect(listed).to_have_count(4)
        expect(page.locator(".sala-count")).to_have_text("4 mesas abiertas")
        parejas = listed.filter(has_text="Yusmary")
        expect(parejas).to_contain_text("Venezuela")
        expect(parejas).to_contain_text("2 sillas libres · 3 mirones · esperando jugadores")
        expect(parejas).to_contain_text(
            "Yusmary (puntuación provisional) · Chucho (puntuación provisional) · silla libre"
        )
        parejas.get_by_text("Las reglas").click()
        expect(parejas).to_contain_text("Meta 100")
        expect(parejas.get_by_role("link", name="Sentarme")).to_be_visible()
        gallo = bot_ratings(Mode.PAREJAS)["gallo"]
        playing = listed.filter(has_text="Ramón")
        expect(playing).to_contain_text("0 sillas libres · 1 mirón · jugando")
        expect(playing).to_contain_text(f"gallo (≈ {gallo} puntos)")
        expect(playing.get_by_role("link", name="Mirar")).to_be_visible()
        expect(listed.filter(has_text="Wilmer")).to_contain_text("De a tres")
        expect(listed.filter(has_text="Rosa")).to_contain_text("1 silla libre")
        page.screenshot(path=str(shots / "web-lobby.png"))
        assert not page.js_errors
    finally:
        for client in clients:
            loop.run(client.close())
