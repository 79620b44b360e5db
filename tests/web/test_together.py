"""Four people, four browsers, one mesa: the invitation link asks only for a name, each page shows
only its own tiles, a whole hand is played by clicking in turn, and everybody ends up looking at
the same line and the same summary. A parado and a mirón are seen at the mesa."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.kit import ServerProcess
from tests.web.driver import Player, create_mesa, start

pytestmark = pytest.mark.slow  # a whole game in the browser: minutes

NAMES = ["Ana", "Beto", "Carla", "Dani"]


def join_from_link(page: Any, link: str, name: str) -> None:
    page.goto(link)
    page.get_by_label("Tu nombre").fill(name)
    page.get_by_role("button", name="Sentarme a jugar").click()
    expect(page.locator(".chair.mine")).to_contain_text(name)


def test_four_browsers_play_a_hand_together(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    host = new_page(1024, 768)
    create_mesa(host, web_server.url, NAMES[0], "venezuela", 10, {})
    link = host.locator("#invite-link").input_value()
    guests = [new_page(390, 844) for _ in NAMES[1:]]
    for page, name in zip(guests, NAMES[1:], strict=True):
        join_from_link(page, link, name)
    pages = [host, *guests]
    expect(host.locator(".chair-name")).to_have_text(["Ana (tú)", *NAMES[1:]])

    # A fifth person finds the mesa full: they wait their turn (estar parado).
    parado = new_page(360, 740)
    parado.goto(link)
    parado.get_by_label("Tu nombre").fill("Eva")
    parado.get_by_role("button", name="Estar parado (esperar turno)").click()
    expect(host.locator(".parados")).to_contain_text("1. Eva")
    # A sixth only watches.
    miron = new_page(360, 740)
    miron.goto(link)
    miron.get_by_role("button", name="Solo mirar").click()
    expect(host.locator(".mirones")).to_contain_text("1")

    # The host changes the rules before the start; everybody sees them change.
    host.get_by_role("button", name="Cambiar las reglas").click()
    host.locator("#configure-preset").select_option("zulia")
    host.locator("#configure-target").fill("12")
    host.get_by_role("button", name="Guardar las reglas").click()
    for page in pages:
        expect(page.locator(".rules-summary")).to_contain_text("Zulia")
        expect(page.locator(".rules-summary")).to_contain_text("Meta 12")

    start(host)
    players = [Player(page) for page in pages]
    for page in pages:
        expect(page.locator(".hand-tile")).to_have_count(7)
    hands = [set(player.hand()) for player in players]
    assert len(set().union(*hands)) == 28, "each page shows only its own seven tiles"
    expect(miron.locator(".my-hand.miron")).to_contain_text("mirones")
    expect(miron.locator(".hand-tile")).to_have_count(0)

    deadline = time.monotonic() + 120
    while not all(player.summary_open() for player in players):
        assert time.monotonic() < deadline, "the hand did not end in time"
        acted = [player.act() for player in players if not player.summary_open()]
        if not any(acted):
            host.wait_for_timeout(60)

    # Everybody sees the same finished line, the same summary and the same scores.
    for page in pages:
        page.locator("[data-key=see-line]").click()
    lines = [player.line() for player in players]
    assert all(line == lines[0] for line in lines) and len(lines[0]) >= 7
    assert miron.locator(".line-tile").count() == len(lines[0])
    scores = [page.locator(".score-points").all_inner_texts() for page in pages]
    assert all(s == scores[0] for s in scores)
    for page in pages:
        page.locator("[data-key=open-summary]").click()
        rows = page.locator(".hands-up tbody th").all_inner_texts()
        assert [row.split("\n")[0] for row in rows] == NAMES
        expect(page.locator(".fair.ok")).to_be_visible()
    assert sum(player.plays for player in players) >= 7
    for page in [*pages, parado, miron]:
        assert page.js_errors == []
