"""Table talk in the browser (#16): players read each other's quick phrases and free text, shown
as text; a mirón's words reach the other mirones but never a seated player's page while a hand
is in play; a player can mute (this browser) and block (the server) another; on a 360 px phone
the open panel leaves the whole hand in sight."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from tests.server.kit import ServerProcess
from tests.web.driver import boxes_overlap, create_mesa, start


def open_talk(page: Any) -> Any:
    """The talk's panel, opened (a phone starts with it closed)."""
    panel = page.locator("aside.chat")
    expect(panel).to_be_visible()
    toggle = panel.locator(".chat-toggle")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    expect(panel.locator(".chat-form input")).to_be_visible()
    return panel


@contextmanager
def hello(server: ServerProcess, code: str, name: str, seat: int | None) -> Iterator[Any]:
    """A person joined by name (seated, or in the queue), their socket welcomed."""
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    joined = httpx.post(f"{server.url}/api/mesas/{code}/join", json=body, timeout=20).json()
    with connect(server.ws_url) as socket:
        socket.send(json.dumps({"type": "hello", "code": code, "token": joined["token"]}))
        assert json.loads(socket.recv(timeout=20))["type"] == "welcome"
        yield socket


def said(socket: Any, count: int) -> list[str]:
    """The next ``count`` sayings a socket hears (their text or phrase key)."""
    heard: list[str] = []
    while len(heard) < count:
        message = json.loads(socket.recv(timeout=20))
        if message["type"] == "chat":
            heard.append(message["text"] or message["phrase"])
    return heard


def test_a_mirons_chat_is_not_shown_to_a_player_mid_hand(
    web_server: ServerProcess, new_page: Callable[..., Any], shots: Path
) -> None:
    """Ana plays on a phone; Beto, her rival, and Caro, a mirón with a name, talk by socket."""
    ana = new_page(360, 740)
    code = create_mesa(ana, web_server.url, "Ana", "mano_a_mano", 10, {})
    with hello(web_server, code, "Beto", 1) as beto, hello(web_server, code, "Caro", None) as caro:
        caro.send(json.dumps({"type": "unqueue"}))  # she watches, out of the queue
        start(ana)
        talk = open_talk(ana)
        log = talk.locator(".chat-log")

        # Mid-hand Caro speaks, then Beto says a quick phrase: Ana's page shows only Beto's, in
        # the table's words.
        caro.send(json.dumps({"type": "say", "text": "Ana lleva el doble seis"}))
        beto.send(json.dumps({"type": "say", "phrase": "se_enfria"}))
        expect(log).to_contain_text("Beto: Juega, que se enfría")
        # Ana's free text reaches Beto and Caro as written, and her page shows it as text.
        talk.locator(".chat-form input").fill("<b>¡Capicúa</b> y agua!")
        expect(talk.locator(".chat-count")).to_have_text("23/200")
        talk.get_by_role("button", name="Enviar").click()
        expect(log).to_contain_text("Ana: <b>¡Capicúa</b> y agua!")
        expect(log.locator("b")).to_have_count(0)
        assert said(beto, 2) == ["se_enfria", "<b>¡Capicúa</b> y agua!"]
        assert said(caro, 3) == ["Ana lleva el doble seis", "se_enfria", "<b>¡Capicúa</b> y agua!"]
        expect(log).not_to_contain_text("doble seis")
        # Nor does the mirón's saying come back with a reload's welcome.
        ana.reload()
        talk = open_talk(ana)
        log = talk.locator(".chat-log")
        expect(log).to_contain_text("Ana: <b>¡Capicúa</b>")
        expect(log).not_to_contain_text("doble seis")

        # The open panel sits between the table and the hand on the phone, covering no tile.
        panel = talk.bounding_box()
        tiles = ana.locator(".hand-tile")
        expect(tiles).to_have_count(7)
        for tile in tiles.all():
            assert not boxes_overlap(panel, tile.bounding_box())
        width = ana.evaluate("[document.scrollingElement.scrollWidth, innerWidth]")
        assert width[0] <= width[1] == 360
        ana.screenshot(path=str(shots / "web-charla.png"))

        # Ana mutes Beto (in her browser), hears him again; then blocks him (the server).
        talk.get_by_role("button", name="Beto: silenciar, bloquear o denunciar").click()
        talk.get_by_role("button", name="Silenciar a Beto").click()
        expect(log).not_to_contain_text("Beto:")
        talk.get_by_role("button", name="Volver a oír a Beto").click()
        expect(log).to_contain_text("Beto: Juega")
        talk.get_by_role("button", name="Beto: silenciar, bloquear o denunciar").click()
        talk.get_by_role("button", name="Bloquear a Beto").click()
        expect(talk.get_by_role("button", name="Desbloquear a Beto")).to_be_visible()
        beto.send(json.dumps({"type": "say", "text": "no me oyes"}))
        caro.send(json.dumps({"type": "say", "phrase": "buena"}))  # a mirón's: not for Ana
        talk.get_by_role("button", name="Gracias, compañero").click()
        expect(log).to_contain_text("Ana: Gracias, compañero")
        assert said(caro, 3) == ["no me oyes", "buena", "gracias"]
        expect(log).not_to_contain_text("no me oyes")
        expect(log).not_to_contain_text("¡Buena!")
    assert ana.js_errors == []


@pytest.mark.slow  # two browsers
def test_players_read_each_other_and_a_miron_reads_the_mirones(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    """Two players in browsers (a wide screen shows the talk open), and a mirón's page."""
    ana = new_page(1280, 800)
    code = create_mesa(ana, web_server.url, "Ana", "mano_a_mano", 10, {})
    beto = new_page(390, 844)
    beto.goto(f"{web_server.url}/m/{code}")
    beto.get_by_label("Tu nombre").fill("Beto")
    beto.get_by_role("button", name="Sentarme a jugar").click()
    expect(beto.locator(".chair.mine")).to_contain_text("Beto")
    # Before the partida the waiting room has the talk too.
    open_talk(beto).get_by_role("button", name="¡Buena!").click()
    expect(ana.locator("aside.chat .chat-log")).to_contain_text("Beto: ¡Buena!")
    start(ana)
    caro = new_page(390, 844)
    caro.goto(f"{web_server.url}/m/{code}")
    caro.get_by_label("Tu nombre").fill("Caro")
    caro.get_by_role("button", name="Estar parado (esperar turno)").click()
    expect(caro.locator(".table-screen")).to_be_visible()
    with hello(web_server, code, "Dani", None) as dani:
        dani.send(json.dumps({"type": "unqueue"}))
        dani.send(json.dumps({"type": "say", "text": "yo tapaba el cinco"}))
        caro_talk = open_talk(caro)
        expect(caro_talk.locator(".chat-log")).to_contain_text("Dani (mirón): yo tapaba el cinco")
        caro_talk.locator(".chat-form input").fill("y yo")
        caro_talk.locator(".chat-form input").press("Enter")
        expect(caro_talk.locator(".chat-log")).to_contain_text("Caro (mirón): y yo")
        assert said(dani, 2) == ["yo tapaba el cinco", "y yo"]
        beto_talk = open_talk(beto)
        beto_talk.locator(".chat-form input").fill("¡Qué calor!")
        beto_talk.get_by_role("button", name="Enviar").click()
        for page in (ana, beto, caro):
            expect(page.locator("aside.chat .chat-log")).to_contain_text("Beto: ¡Qué calor!")
        for page in (ana, beto):
            expect(page.locator("aside.chat .chat-log")).not_to_contain_text("cinco")
            expect(page.locator("aside.chat .chat-log")).not_to_contain_text("y yo")
    # In English the phrases are the English ones.
    ana.get_by_role("button", name="English").click()
    expect(ana.locator("aside.chat .chat-log")).to_contain_text("Beto: Nice one!")
    assert ana.js_errors == [] and beto.js_errors == [] and caro.js_errors == []
