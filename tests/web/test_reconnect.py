"""Back in the chair: a reload in the middle of a hand, and a server that goes away and comes back,
put the player where they were, with their tiles, the line and the fair-deal promise of the hand.
Keyboard play and the tiles' accessible names are checked on the way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from fichaflow.core.tiles import parse, spoken
from tests.server.kit import ServerProcess
from tests.web.driver import Player, create_mesa, next_hand, start

pytestmark = pytest.mark.slow  # a whole game in the browser: minutes

BOTS = {1: "tirapuntos", 2: "tirafichas", 3: "acuestafichas"}


def wait_for_my_turn(player: Player) -> None:
    """Until this seat is to play (a hand that ends first is closed and the next one dealt)."""
    page = player.page
    while not page.locator(".my-hand.my-turn").count():
        if player.summary_open():
            next_hand(page)
        page.wait_for_timeout(50)


def test_reload_and_a_lost_server_put_the_player_back(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    page = new_page(390, 844)
    create_mesa(page, web_server.url, "Ana", "dominicana", 100, BOTS)
    start(page)
    me = Player(page)

    # Every tile has its spoken name, as the core says it ("seis-cuatro").
    for tile in me.hand():
        expect(page.get_by_role("button", name=spoken(parse(tile)), exact=True)).to_have_count(1)

    # The first move by keyboard: arrows walk the tiles, Enter plays, arrows pick an end. (Deals
    # differ by hand, so a turn with nothing that fits is passed first, as a player would.)
    wait_for_my_turn(me)
    while not me.playable():
        me.act()
        wait_for_my_turn(me)
    page.locator(".hand-tile[tabindex='0']").focus()
    playable = set(me.playable())
    for _ in range(len(me.hand())):
        if page.evaluate("document.activeElement.dataset.tile") in playable:
            break
        page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.tile")
    assert focused in playable
    before = len(me.hand())
    page.keyboard.press("Enter")
    if page.locator(".end-choice").count():
        expect(page.locator(".end-choice.end-left")).to_be_focused()
        page.keyboard.press("ArrowRight")
        expect(page.locator(".end-choice.end-right")).to_be_focused()
        page.keyboard.press("Enter")
    expect(page.locator(".hand-tile")).to_have_count(before - 1)
    assert focused in me.line()

    # One more move; then, at this seat's turn (nothing moves while it thinks), a reload.
    wait_for_my_turn(me)
    me.act()
    wait_for_my_turn(me)
    tiles, line = sorted(me.hand()), me.line()
    page.reload()
    expect(page.locator(".table-screen")).to_be_visible()
    expect(page.locator(".hand-tile")).to_have_count(len(tiles))
    assert sorted(me.hand()) == tiles and me.line() == line
    expect(page.locator(".my-hand.my-turn")).to_have_count(1)

    # The server goes away (killed, no goodbye) and comes back on the same database.
    web_server.kill()
    expect(page.locator(".connection-banner")).to_contain_text("Reconectando")
    web_server.start()
    expect(page.locator(".connection-banner")).to_have_count(0, timeout=20_000)
    assert sorted(me.hand()) == tiles and me.line() == line

    me.play_until_summary()
    fair = page.locator(".fair.ok")
    expect(fair).to_contain_text("publicado al repartir")
    assert page.js_errors == []
