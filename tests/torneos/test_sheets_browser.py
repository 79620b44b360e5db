"""A physical table's sheet in Chromium: the organizer binds an anotador sheet to a table from
their page (a laptop) and sees each side's code; once the partida is kept to its end, each side
confirms on a 360 x 740 phone with its own code: one side's confirmation leaves it pending (on
the organizer's page too), a wrong code is refused in Spanish and changes nothing, and the
second side's puts it into the standings. The round's page opened with the organizer's code
prints each side's code on a strip of the table's card. Screenshot ``torneo-confirmar.png``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.axe import assert_accessible
from tests.torneos.test_api import create, post
from tests.torneos.test_sheets import SPEC, organizer, play_to_the_end, points_for, sheet_of
from tests.web.test_axe import STRUCTURE

if TYPE_CHECKING:  # the fixtures' types; pytest provides the fixtures themselves
    from pathlib import Path

    from tests.server.kit import ServerProcess


def test_each_side_confirms_its_tables_sheet_on_a_phone(
    browser: Any, sqlite_server: ServerProcess, shots: Path
) -> None:
    from playwright.sync_api import expect

    made = create(sqlite_server, SPEC)
    code, public = made["code"], made["public"]
    table = post(sqlite_server, f"{code}/rounds").json()["round"]["tables"][0]
    names = {1: "Ana y Beto", 2: "Carla y Dani"}
    side_a, side_b = names[table["a"][0]], names[table["b"][0]]

    laptop = browser.new_context(viewport={"width": 1280, "height": 800}, locale="es-ES")
    desk = laptop.new_page()
    desk.goto(f"{sqlite_server.url}/torneo/?o={code}")
    box = desk.locator("[data-testid=sheet-1-1]")
    box.get_by_role("button", name="Crear la planilla del anotador").click()
    expect(box.locator("[data-side]")).to_have_count(2)  # the server made it and answered
    sheet = sheet_of(organizer(sqlite_server, code), 1)
    codes = sheet["codes"]
    expect(box.locator("[data-side=a]")).to_contain_text(
        f"Código del lado A ({side_a}): {codes['a']}"
    )
    expect(box.locator("[data-side=b]")).to_contain_text(
        f"Código del lado B ({side_b}): {codes['b']}"
    )
    expect(box.get_by_test_id("sheet-state")).to_have_text("La planilla aún no tiene manos.")
    # The table is kept at a physical table now: it is no longer offered online.
    expect(desk.locator("[data-testid=online-1-1]")).to_have_count(0)
    # The round's page opened with the organizer's code prints one strip per side to cut.
    cards = laptop.new_page()
    cards.goto(f"{sqlite_server.url}/torneo/ronda.html?o={code}&ronda=1")
    strips = cards.locator("[data-table='1'] .strip")
    expect(strips).to_have_count(2)
    expect(strips.nth(0)).to_contain_text(f"Código del lado A ({side_a}): {codes['a']}")
    expect(strips.nth(1)).to_contain_text(f"c={codes['b']}")
    expect(cards.locator("[data-table='2'] .strip")).to_have_count(0)  # no sheet there
    cards.goto(f"{sqlite_server.url}/torneo/ronda.html?p={public}&ronda=1")
    expect(cards.locator(".card")).to_have_count(2)
    expect(cards.locator(".strip")).to_have_count(0)  # the public never sees the codes
    final = play_to_the_end(sqlite_server, sheet["sheet"])
    shown = f"{final[0]}-{final[1]}"
    before = points_for(organizer(sqlite_server, code))

    phone = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")
    page = phone.new_page()
    refused: list[str] = []  # the page's own errors, a Content-Security-Policy refusal among them
    page.on("console", lambda m: refused.append(m.text) if m.type == "error" else None)
    # Side a follows the link on its strip, which carries its code.
    link = box.locator("[data-side=a] a").get_attribute("href")
    assert link is not None and f"c={codes['a']}" in link
    page.goto(f"{sqlite_server.url}{link}")
    expect(page.locator("#table")).to_have_text("Mesa 1 · Ronda 1")
    expect(page.get_by_test_id("confirm-state")).to_have_text(f"Pendiente: {shown}")
    assert_accessible(page, "the confirmation of a table's result", also=STRUCTURE)
    page.get_by_role("button", name=f"Confirmar {shown}").click()
    expect(page.locator("#done")).to_have_text(
        "Confirmado por el lado A. Falta que confirme el otro lado"
        " (o que el organizador lo apruebe)."
    )
    assert organizer(sqlite_server, code)["record"]["log"] == []  # one side: still pending
    state = box.get_by_test_id("sheet-state")  # the organizer's page follows by itself
    expect(state).to_have_text(
        f"Pendiente: {shown} · confirmó {side_a} · falta que confirme {side_b}", timeout=15_000
    )

    # Side b types its code; a wrong one first.
    other = phone.new_page()
    other.goto(f"{sqlite_server.url}/torneo/confirmar.html?p={public}&ronda=1&mesa=1")
    code_box = other.get_by_label("Tu código")
    code_box.fill("ZZZZZ9")
    other.get_by_role("button", name=f"Confirmar {shown}").click()
    expect(other.locator("#error")).to_contain_text("Ese código no es de ninguno de los dos lados")
    assert organizer(sqlite_server, code)["record"]["log"] == []
    code_box.fill(codes["b"].lower())
    width = other.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], f"the confirmation scrolls sideways: {width}"
    other.screenshot(path=str(shots / "torneo-confirmar.png"), full_page=True)
    other.get_by_role("button", name=f"Confirmar {shown}").click()
    entered = f"Resultado anotado en la clasificación: {shown}."
    expect(other.get_by_test_id("confirm-state")).to_have_text(entered)
    expect(other.locator("#error")).to_be_hidden()
    expect(other.locator("#confirm-form")).to_be_hidden()
    view = organizer(sqlite_server, code)
    assert view["record"]["log"][0]["score"] == final
    assert points_for(view)[side_a] == before[side_a] + final[0]
    # Side a's page, asked again, says so too.
    expect(page.get_by_test_id("confirm-state")).to_have_text(entered, timeout=15_000)
    assert refused == []
    phone.close()
    laptop.close()
