"""Robar del montón, mano a mano on a phone: when nothing fits, the page offers «Robar» and no
Paso; each tap (or Enter) takes exactly one tile, which the player sees in their hand and hears
named, while the montón shrinks by one. The server's record, replayed by the rules core, has this
seat drawing exactly the tiles it tapped for. Every draw is heard (the montón's own sound)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from fichaflow.core.tiles import name
from tests.server.kit import ServerProcess
from tests.web.driver import Player, create_mesa, next_hand, recorded_partida, start
from tests.web.test_feel import LISTEN, heard

pytestmark = pytest.mark.slow  # a whole game in the browser: minutes

MAX_HANDS = 30  # a hand where this seat draws twice comes within a few hands


def test_a_player_draws_from_the_monton_one_tap_at_a_time(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    page = new_page(360, 740)
    page.add_init_script(LISTEN)
    code = create_mesa(page, web_server.url, "Ana", "mano_a_mano", 500, {1: "tirafichas"})
    start(page)
    me = Player(page)
    stock = page.locator(".stock")

    for number in range(1, MAX_HANDS + 1):
        seen_drawn: list[str] = []
        while not me.summary_open():
            if not me.can_draw():
                # Everything but drawing (the button may come up meanwhile: then it waits).
                if me.act(draw=False) is None:
                    page.wait_for_timeout(60)
                continue
            button = page.locator(".action-draw")
            expect(button).to_be_in_viewport()
            expect(page.locator(".action-pass")).to_have_count(0)
            expect(page.locator(".prompt")).to_contain_text("roba del montón")
            held = me.hand()
            left = int(stock.inner_text().rsplit(" ", 1)[-1])
            me.draw(by_keyboard=len(seen_drawn) % 2 == 1)
            new = [tile for tile in me.hand() if tile not in held]
            assert len(new) == 1 and len(me.hand()) == len(held) + 1, "one tap, one tile"
            expect(stock).to_have_text(f"Montón: {left - 1}")
            expect(page.locator(".event")).to_contain_text(f"Robaste {new[0]}")
            seen_drawn.append(new[0])

        partida = recorded_partida(web_server.url, code, 1)
        history = partida.played[number - 1].hand.history
        drawn = [name(t.drawn) for t in history if t.seat == 0 and t.move.is_draw]
        assert drawn == seen_drawn, "the record's draws are the ones tapped for"
        # Each of this seat's draws made the montón's sound (a rival's run of draws makes one).
        draws = heard(page).count("draw")
        assert len(seen_drawn) <= draws <= sum(1 for t in history if t.move.is_draw), draws
        if len(seen_drawn) >= 2:
            break
        page.evaluate("() => { window.__heard = []; }")  # the next hand's sounds only
        next_hand(page)
    else:
        raise AssertionError(f"this seat never drew twice in one hand in {MAX_HANDS} hands")
    assert page.js_errors == []
