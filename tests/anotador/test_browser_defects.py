"""The anotador's page on a phone, against the defects of issue #15: a meta out of range, a chair
without a name and an impossible count of pips are caught by the page, in the form's own words,
before any request; a pair wins in the plural; undo takes away the toast of the hand it undoes;
the bar's buttons look disabled once the partida is over; the game's icon and language carry
over."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.anotador.test_api import new_mesa
from tests.anotador.test_browser import keys

pytestmark = pytest.mark.slow  # browser checks of #15's fixes and the policy; the page tests
# of tests/web, tests/anotador and tests/review keep each page in the quick run

if TYPE_CHECKING:  # the fixtures' types; pytest provides the fixtures themselves
    from tests.server.kit import ServerProcess

GREEN = "rgb(13, 92, 70)"  # --green: an enabled primary button


def phone(browser: Any) -> Any:
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")
    context.set_default_timeout(20_000)
    return context.new_page()


def posts(page: Any) -> list[str]:
    """The POSTs the page sends from now on (to show that nothing went out)."""
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    return sent


def test_a_meta_out_of_range_is_named_as_the_form_names_it(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    from playwright.sync_api import expect

    page = phone(browser)
    page.goto(f"{sqlite_server.url}/anotador/")
    for seat, name in enumerate(["Ana", "Beto", "Carla", "Diego"]):
        page.locator(f"input[name=player{seat}]").fill(name)
    sent = posts(page)
    for typed in ["5", "10000", "-3", ""]:
        page.get_by_label("Meta").fill(typed)
        page.get_by_role("button", name="Crear mesa").click()
        error = page.locator("#setup-error")
        expect(error).to_contain_text("«Meta»")
        assert "target" not in error.inner_text()
    # A chair without a name is called as the form calls it (not «jugador 1», counted from 0).
    page.get_by_label("Meta").fill("100")
    page.locator("input[name=player1]").fill("")
    page.get_by_role("button", name="Crear mesa").click()
    expect(page.locator("#setup-error")).to_have_text("Falta el nombre del jugador 2 · B.")
    assert sent == []
    page.context.close()


def test_a_hand_from_a_wrong_count_to_a_pairs_win(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    from playwright.sync_api import expect

    code = new_mesa(sqlite_server, rules={"preset": "venezuela", "target": 10})["code"]
    page = phone(browser)
    page.goto(f"{sqlite_server.url}/anotador/?mesa={code}")
    lines = page.locator("#lines li[data-id]")

    def domino(pips: str) -> None:
        page.get_by_role("button", name="Dominó").click()
        page.get_by_test_id("who").get_by_role("button", name="Ana").click()
        keys(page, pips)
        page.get_by_test_id("leader").get_by_role("button", name="Ana").click()

    # 999 pips in Beto's hand: said by the page with the name the form shows, never sent.
    sent = posts(page)
    domino("999→0")
    page.locator("#entry-save").click()
    error = page.locator("#entry-error")
    expect(error).to_contain_text("Beto no puede tener más de 69 tantos")
    assert "asiento" not in error.inner_text()
    assert sent == []
    page.locator("#entry-cancel").click()

    # Saved, then undone at once: the toast of the hand undone goes with it.
    domino("5→0")
    page.locator("#entry-save").click()
    expect(lines).to_have_count(1)
    expect(page.locator("#toast")).to_be_visible()
    page.get_by_role("button", name="Deshacer").click()
    expect(lines).to_have_count(0)
    assert page.locator("#toast").is_hidden()

    # A pair wins: «¡Ganan …!»; the bar's entry buttons are disabled and look it.
    domino("20→0")
    page.locator("#entry-save").click()
    expect(page.locator("#banner")).to_be_visible()
    expect(page.locator("#banner")).to_contain_text("¡Ganan Ana y Carla!")
    for name in ["domino", "tranque"]:
        button = page.locator(f"#btn-{name}")
        expect(button).to_be_disabled()
        assert button.evaluate("b => getComputedStyle(b).backgroundColor") != GREEN
    page.context.close()


def test_the_games_language_and_icon_carry_to_the_anotador(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    from playwright.sync_api import expect

    page = phone(browser)
    page.goto(f"{sqlite_server.url}/")
    page.get_by_role("button", name="Switch to English").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.goto(f"{sqlite_server.url}/anotador/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#lang")).to_have_text("Español")
    icon = page.locator("link[rel=icon]").get_attribute("href")
    assert icon and page.request.get(f"{sqlite_server.url}{icon}").ok
    page.context.close()


def test_with_a_montón_a_hand_may_hold_more_pips(
    browser: Any, sqlite_server: ServerProcess
) -> None:
    """Mano a mano each may draw the whole montón: 21 tiles, at most 153 pips (not parejas' 69)."""
    from playwright.sync_api import expect

    code = new_mesa(sqlite_server, rules="mano_a_mano", players=["Ana", "Beto"])["code"]
    page = phone(browser)
    page.goto(f"{sqlite_server.url}/anotador/?mesa={code}")
    sent = posts(page)
    page.get_by_role("button", name="Dominó").click()
    page.get_by_test_id("who").get_by_role("button", name="Ana").click()
    keys(page, "154")
    page.locator("#entry-save").click()
    expect(page.locator("#entry-error")).to_have_text(
        "Beto no puede tener más de 153 tantos en la mano (no 154)."
    )
    assert sent == []
    keys(page, "⌫3")
    leader = page.get_by_test_id("leader")
    if leader.count():
        leader.get_by_role("button", name="Ana").click()
    page.locator("#entry-save").click()
    expect(page.locator("#lines li[data-id]")).to_have_count(1)
    page.context.close()
