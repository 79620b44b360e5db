"""The public lobby on the home page (#16): two browsers pressing «Jugar ya» in one mode meet at
the same mesa, the second sees the first's mesa listed live before it joins, and the partida
starts with the two of them; alone, after the wait the player chose, the bots sit down and the
partida starts."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.kit import ServerProcess


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
