"""The keyboard and the screen reader at the table (#15): the focus never falls to the page's body
(a tile played, a chair filled, a dialog closed with Escape), a modal dialog keeps Tab inside,
the skip link jumps the top bar, and what the table says reaches the live region whole: «Te toca»
when the turn comes, and every bot's move even when they play milliseconds apart."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.server.kit import TEST_SEED, ServerProcess
from tests.web.driver import Player, create_mesa, start

pytestmark = pytest.mark.slow  # browser checks of #15's fixes; each page keeps its own browser
# test in the quick run

FOCUSED = "() => { const e = document.activeElement; return e === document.body ? 'body' : e.outerHTML.slice(0, 120); }"  # noqa: E501


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("focus")
    with ServerProcess(f"sqlite:///{Path(folder) / 'focus.sqlite3'}", seed=TEST_SEED) as process:
        yield process


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
    context.set_default_timeout(20_000)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    assert errors == []
    context.close()


def focused(page: Any) -> str:
    return str(page.evaluate(FOCUSED))


def test_the_skip_link_is_the_first_stop_and_jumps_the_top_bar(
    server: ServerProcess, page: Any
) -> None:
    page.goto(f"{server.url}/")
    expect(page.get_by_label("Tu nombre")).to_be_visible()
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Saltar al contenido principal")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    expect(page.locator("main#main")).to_be_focused()


def test_each_poner_bot_hands_the_focus_to_the_next_chair_then_to_the_start(
    server: ServerProcess, page: Any
) -> None:
    create_mesa(page, server.url, "Ana", "venezuela", 100, {})
    page.locator("[data-key=put-bot-1]").focus()
    for seat in (1, 2, 3):
        page.keyboard.press("Enter")
        expect(page.locator(f".chair[data-seat='{seat}']")).to_have_class(re.compile(r"\bbot\b"))
        following = f"[data-key=put-bot-{seat + 1}]" if seat < 3 else "[data-key=start]"
        expect(page.locator(following)).to_be_focused()
    page.keyboard.press("Enter")  # «Empezar la partida», from the keyboard
    expect(page.locator(".table-screen")).to_be_visible()


def test_a_tile_played_leaves_the_focus_on_the_hand(server: ServerProcess, page: Any) -> None:
    create_mesa(page, server.url, "Ana", "mano_a_mano", 60, {1: "tirafichas"})
    start(page)
    # The seed's first hand: Ana leads with the 6-6; the page puts the focus on her hand.
    tile = page.locator(".hand-tile[data-tile='6-6']")
    expect(tile).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".line-tile")).to_have_count(1)
    expect(page.locator(".hand-tile[data-tile='6-6']")).to_have_count(0)
    expect(page.locator(".hand-tile:focus")).to_have_count(1)
    # The bot answers; the focus is still on the hand, not on the body, while Ana waits.
    expect(page.locator(".table-screen")).not_to_have_attribute("data-turns", "1")
    assert "hand-tile" in focused(page), focused(page)


def test_escape_closes_the_summary_and_the_focus_returns_to_its_button(
    server: ServerProcess, page: Any
) -> None:
    create_mesa(page, server.url, "Ana", "mano_a_mano", 60, {1: "tirafichas"})
    start(page)
    Player(page).play_until_summary()
    expect(page.get_by_role("dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.locator("[data-key=open-summary]")).to_be_focused()


def test_a_modal_dialog_keeps_tab_inside(server: ServerProcess, page: Any) -> None:
    create_mesa(page, server.url, "Ana", "mano_a_mano", 60, {1: "tirafichas"})
    start(page)
    page.locator("[data-key=open-mesa]").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    for key in ["Tab"] * 25 + ["Shift+Tab"] * 25:
        page.keyboard.press(key)
        inside = page.evaluate("() => Boolean(document.activeElement.closest('[role=dialog]'))")
        assert inside, f"{key} left the dialog for {focused(page)}"
    # Behind it, the table takes no focus at all.
    assert page.evaluate("() => document.querySelector('.table-screen').inert")
    page.keyboard.press("Escape")
    expect(page.locator("[data-key=open-mesa]")).to_be_focused()


def test_the_turn_and_every_fast_bot_move_are_announced(server: ServerProcess, page: Any) -> None:
    bots = {1: "tirafichas", 2: "tirafichas", 3: "tirafichas"}
    create_mesa(page, server.url, "Ana", "venezuela", 100, bots)  # bots play with no pause
    start(page)
    announcer = page.locator("#announcer")
    ana = Player(page)
    # Ana's first turn: the page says so (it only showed it before).
    expect(announcer).to_contain_text(re.compile("Te toca|No llevas|Sales tú"))
    page.evaluate("() => document.getElementById('announcer').replaceChildren()")
    while ana.act() is None:
        page.wait_for_timeout(50)
    # Three bots answer within milliseconds of each other; when the turn is Ana's again, each of
    # their moves was said (merged, or one after the other), not only the last one.
    expect(page.locator(".my-turn, [data-dialog=summary-dialog]").first).to_be_visible()
    if page.locator("[data-dialog=summary-dialog]").count():
        pytest.skip("the seed's hand ended before Ana's second turn")
    expect(announcer).to_contain_text(re.compile("Te toca|No llevas"))
    text = announcer.inner_text()
    for seat in (2, 3, 4):
        assert f"tirafichas {seat}" in text, text
