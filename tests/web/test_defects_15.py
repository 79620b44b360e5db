"""The game's lobby against the defects of issue #15: a meta out of range is caught by the form,
in the form's words, before any request; the bot offered for an empty chair stays what the host
sees while other chairs fill."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.kit import ServerProcess
from tests.web.driver import create_mesa

pytestmark = pytest.mark.slow  # browser checks of #15's fixes and the policy; the page tests
# of tests/web, tests/anotador and tests/review keep each page in the quick run


def test_a_meta_out_of_range_is_caught_by_the_form(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    page = new_page(width=360)
    page.goto(f"{web_server.url}/")
    page.get_by_label("Tu nombre").fill("Ana")
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    for typed in ["5", "10000", "-3", ""]:
        page.get_by_label("Meta").fill(typed)
        page.get_by_role("button", name="Crear la mesa").click()
        error = page.locator(".form-error")
        expect(error).to_contain_text("«Meta»")
        assert "target" not in error.inner_text()
    assert sent == []
    assert page.js_errors == []


def test_the_bot_offered_stays_what_the_host_sees(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    create_mesa(page, web_server.url, "Ana", "venezuela", 100, {})
    assert page.locator("#bot-for-2").input_value() == "jugador"
    page.get_by_role("button", name="Poner bot en el asiento 2").click()
    expect(page.locator(".chair[data-seat='1']")).to_contain_text("jugador")
    # The other chairs still offer what they showed before the first one filled.
    for seat in (2, 3):
        assert page.locator(f"#bot-for-{seat}").input_value() == "jugador"
    assert page.js_errors == []


def test_the_rules_dialog_catches_a_meta_out_of_range_too(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    sent: list[str] = []  # what the page says to the server, from the start
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    create_mesa(page, web_server.url, "Ana", "venezuela", 100, {})
    assert sent  # (the listener hears the page)
    page.get_by_role("button", name="Cambiar las reglas").click()
    page.locator("#configure-target").fill("5")
    page.get_by_role("button", name="Guardar las reglas").click()
    expect(page.locator(".form-error")).to_contain_text("«Meta» debe ser un número entero de 10")
    assert not [frame for frame in sent if "configure" in str(frame)]
    assert page.js_errors == []
