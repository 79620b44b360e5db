"""The Repaso on a 360 px phone (issue #15): nothing wider than the screen, on load and with a
decision open; seats counted from 1 as the lobby counts them; the game's icon; the language chosen
elsewhere in FichaFlow, and the toggle named as the game names it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.review.mesas import ana_plays_a_hand
from tests.server.kit import ServerProcess

pytestmark = pytest.mark.slow  # browser checks of #15's fixes and the policy; the page tests
# of tests/web, tests/anotador and tests/review keep each page in the quick run

WIDTH = 360


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("repaso-phone")
    with ServerProcess(f"sqlite:///{Path(folder) / 'repaso.sqlite3'}") as process:
        yield process


@pytest.fixture(scope="module")
def code(server: ServerProcess) -> str:
    """A mesa whose first hand ended (Ana and three bots)."""
    with ThreadPoolExecutor(1) as thread:
        return str(thread.submit(asyncio.run, ana_plays_a_hand(server)).result())


def phone(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": WIDTH, "height": 740}, locale="es-ES")
    context.set_default_timeout(30_000)
    return context.new_page()


def page_width(page: Any) -> int:
    return int(page.evaluate("document.documentElement.scrollWidth"))


def test_the_repaso_fits_a_phone_with_a_decision_open(
    browser: Any, server: ServerProcess, code: str
) -> None:
    from playwright.sync_api import expect

    page = phone(browser)
    page.goto(f"{server.url}/repaso/?mesa={code}&partida=1&mano=1&asiento=0&precision=fast")
    expect(page.locator("#board")).to_be_visible()
    assert page_width(page) <= WIDTH
    page.locator("#decisions button").first.click()
    expect(page.locator("#decision table.ranking")).to_be_visible()
    assert page_width(page) <= WIDTH
    # The ranking is read whole, without scrolling sideways inside its box either.
    box = page.locator("#decision .table-box")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), box.evaluate("b => b.scrollWidth")
    page.context.close()


def test_beside_the_board_on_a_wide_screen_the_ranking_reads_whole(
    browser: Any, server: ServerProcess, code: str
) -> None:
    """On a laptop the analysis is a column beside the board, narrower than a phone's screen
    once the page's margins are gone: the ranking takes the phone's compact form there too
    instead of hiding its verdicts behind a sideways scroll."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
    context.set_default_timeout(30_000)
    page = context.new_page()
    page.goto(f"{server.url}/repaso/?mesa={code}&partida=1&mano=1&asiento=0&precision=fast")
    expect(page.locator("#board")).to_be_visible()
    page.locator("#decisions button").first.click()
    expect(page.locator("#decision table.ranking")).to_be_visible()
    board = page.locator("#board").bounding_box()
    analysis = page.locator("#analysis").bounding_box()
    assert board and analysis and analysis["x"] > board["x"] + board["width"]  # side by side
    box = page.locator("#decision .table-box")
    assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), box.evaluate("b => b.scrollWidth")
    assert page_width(page) <= 1280
    context.close()


def test_seats_are_counted_from_one_and_the_page_has_the_games_icon(
    browser: Any, server: ServerProcess, code: str
) -> None:
    from playwright.sync_api import expect

    page = phone(browser)
    page.goto(f"{server.url}/repaso/?mesa={code}&partida=1&mano=1")
    expect(page.locator("#board")).to_be_visible()
    labels = page.locator("select[name=asiento] option").all_inner_texts()
    assert [label.rsplit("(", 1)[1] for label in labels] == [f"asiento {n})" for n in (1, 2, 3, 4)]
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert icon and page.request.get(f"{server.url}{icon}").ok
    page.context.close()


def test_the_language_chosen_in_the_game_carries_to_the_repaso(
    browser: Any, server: ServerProcess
) -> None:
    from playwright.sync_api import expect

    page = phone(browser)
    page.goto(f"{server.url}/")
    page.get_by_role("button", name="Switch to English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto(f"{server.url}/repaso/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#lang")).to_have_text("Español")
    page.locator("#lang").click()  # and back: the game follows
    page.goto(f"{server.url}/")
    expect(page.get_by_role("button", name="Switch to English")).to_be_visible()
    page.context.close()
