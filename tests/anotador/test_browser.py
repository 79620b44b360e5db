"""The anotador's page in Chromium on a 360 x 740 phone screen: create a mesa, enter a dominó and
the seed's tranque, correct an earlier hand, lose the network, enter a hand, and find it saved
exactly once when the network comes back. Screenshots go to the ``shots`` folder
(tests/browser.py)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import httpx
import pytest

if TYPE_CHECKING:  # the fixtures' types; pytest provides the fixtures themselves
    from pathlib import Path

    from tests.server.kit import ServerProcess


def keys(page: object, text: str) -> None:
    """Type on the page's numeric keypad: digits, "⌫" to erase, "→" for the next field."""
    for key in text:
        page.locator(f"#entry .keypad button[data-key='{key}']").click()  # type: ignore[attr-defined]


@pytest.mark.slow  # a whole evening's flow; the rules form below keeps the page in the quick run
def test_a_whole_table_on_one_phone(
    browser: object, sqlite_server: ServerProcess, shots: Path
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(f"{sqlite_server.url}/anotador/")

    # A new mesa: the Dominican preset ("con el de abajo"), four players in turn order.
    page.get_by_label("Nombre de la mesa").fill("Patio de Lola")
    for seat, name in enumerate(["Ana", "Beto", "Carla", "Diego"]):
        page.locator(f"input[name=player{seat}]").fill(name)
    page.screenshot(path=str(shots / "anotador-nueva-mesa.png"), full_page=True)
    # More rules and bonuses, in the game's own words (not the options' code names).
    page.get_by_text("Más reglas y bonos").click()
    options = page.locator("#options")
    expect(options).to_contain_text("Cómo se gana un tranque")
    expect(options.get_by_label("Cómo se gana un tranque")).to_have_value("abajo")
    expect(options).to_contain_text("Con el de abajo")
    expect(options).to_contain_text("Premio por capicúa")
    expect(options).not_to_contain_text("tranque_rule")
    page.get_by_role("button", name="Crear mesa").click()
    expect(page.locator("#sheet")).to_be_visible()
    code = page.evaluate("new URLSearchParams(location.search).get('mesa')")
    total0, total1 = page.get_by_test_id("total-0"), page.get_by_test_id("total-1")

    # The seed's tranque: Ana trancó with 8, Beto 11, Carla 7, Diego 14; Ana led.
    page.get_by_role("button", name="Tranque").click()
    page.get_by_test_id("who").get_by_role("button", name="Ana").click()
    keys(page, "8→11→7→14")
    page.get_by_test_id("leader").get_by_role("button", name="Ana").click()
    page.screenshot(path=str(shots / "anotador-tranque.png"))
    page.locator("#entry-save").click()
    expect(total0).to_have_text("40")
    expect(total1).to_have_text("0")
    first = page.locator("#lines li").first
    expect(first).to_contain_text("Tranque con el de abajo: Ana con 8, Beto con 11.")
    expect(first).to_contain_text("8 + 11 + 7 + 14 = 40")
    expect(first).to_contain_text("Bono de tranque: 0.")

    # A dominó by Beto: every hand counts (Carla 10, Diego 3, Ana 5); Carla led, as the rule says.
    page.get_by_role("button", name="Dominó").click()
    page.get_by_test_id("who").get_by_role("button", name="Beto").click()
    expect(page.locator("#entry")).to_contain_text("Salió Carla")
    keys(page, "10→3→5")
    page.locator("#entry-save").click()
    expect(total1).to_have_text("18")

    # Correct the first hand: Ana had 12, not 8, so Beto wins the comparison: 44 for his pair.
    first.click()
    page.get_by_role("button", name="Corregir").click()
    page.locator("#entry [data-field=s0]").click()
    keys(page, "⌫12")
    page.locator("#entry-save").click()
    expect(total0).to_have_text("0")
    expect(total1).to_have_text("62")
    page.screenshot(path=str(shots / "anotador-hoja.png"))

    # No network: the hand waits in the phone, marked pending, and the totals do not move.
    context.set_offline(True)
    page.get_by_role("button", name="Dominó").click()
    page.get_by_test_id("who").get_by_role("button", name="Ana").click()
    keys(page, "4→6→2")
    page.locator("#entry-save").click()
    pending = page.locator("#lines li.pending")
    expect(pending).to_have_count(1)
    expect(pending).to_contain_text("Pendiente")
    expect(page.locator("#net")).to_have_text("Sin red")
    expect(total0).to_have_text("0")
    page.screenshot(path=str(shots / "anotador-sin-red.png"))

    # The network is back: the hand is sent, saved, and counted once.
    context.set_offline(False)
    expect(total0).to_have_text("12", timeout=15_000)
    expect(pending).to_have_count(0)
    stored = httpx.get(f"{sqlite_server.url}/api/anotador/mesas/{code}").json()
    assert stored["version"] == 4  # three hands and one correction, nothing twice
    assert [line["gains"] for line in stored["state"]["partida"]["lines"]] == [
        [0, 44],
        [0, 18],
        [12, 0],
    ]
    page.reload()
    expect(total0).to_have_text("12")
    expect(page.locator("#lines li")).to_have_count(3)
    assert page.evaluate(f"localStorage.getItem('fichaflow-anotador-outbox-{code}')") == "[]"

    # Mirones follow through the read-only link, and see every change live.
    watcher = context.new_page()
    watcher.goto(f"{sqlite_server.url}/anotador/?ver={stored['watch']}")
    expect(watcher.get_by_test_id("total-1")).to_have_text("62")
    expect(watcher.locator("#bar")).to_be_hidden()
    page.get_by_role("button", name="Ajuste").click()
    page.get_by_test_id("team").get_by_role("button", name="Beto y Diego").click()
    keys(page, "5")
    page.get_by_role("button", name="Restar").click()
    page.get_by_role("button", name="Cabra").click()
    page.locator("#entry-save").click()
    expect(total1).to_have_text("57")
    expect(watcher.get_by_test_id("total-1")).to_have_text("57", timeout=15_000)
    watcher.screenshot(path=str(shots / "anotador-mirones.png"))
    page.get_by_role("button", name="Más").click()
    page.screenshot(path=str(shots / "anotador-menu.png"))
    context.close()


def test_the_rules_form_is_the_servers_description(
    browser: object, sqlite_server: ServerProcess
) -> None:
    """The setup form offers what /api/presets describes (the core's options, choices and ranges,
    each mode's seats), in the words the game uses for them."""
    from playwright.sync_api import expect

    answer = httpx.get(f"{sqlite_server.url}/api/presets").json()
    words = httpx.get(f"{sqlite_server.url}/i18n/es.json").json()
    specs = {spec["name"]: spec for spec in answer["options"]}
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(f"{sqlite_server.url}/anotador/")
    page.get_by_text("Más reglas y bonos").click()
    options = page.locator("#options")

    def check(preset: str) -> None:
        values = answer["presets"][preset]
        mode = values["mode"]
        target = page.locator("#setup-form [name=target]")
        expect(page.locator("#target-label")).to_have_text(words["option.target"])
        expect(target).to_have_value(str(values["target"]))
        expect(target).to_have_attribute("min", str(specs["target"]["min"]))
        expect(target).to_have_attribute("max", str(specs["target"]["max"]))
        expect(page.locator("#seats-fields input")).to_have_count(answer["seats"][mode])
        for name, spec in specs.items():
            field = options.locator(f"[name={name}]")
            if name == "target" or mode not in spec["modes"]:
                expect(field).to_have_count(0)
                continue
            expect(field).to_have_value(str(values[name]))
            label = options.locator(f"label:has([name={name}]) > span")
            expect(label).to_have_text(words[f"option.{name}"])
            if spec["kind"] == "integer":
                expect(field).to_have_attribute("min", str(spec["min"]))
                expect(field).to_have_attribute("max", str(spec["max"]))
                continue
            allowed = [c for c in spec["choices"] if mode in spec["choice_modes"].get(c, [mode])]
            offered = field.locator("option")
            expect(offered).to_have_count(len(allowed))
            assert offered.evaluate_all("(os) => os.map((o) => o.value)") == allowed
            labels = [words[f"value.{name}.{choice}"] for choice in allowed]
            assert offered.all_inner_texts() == labels

    check(answer["default_preset"])
    # De a tres: three chairs, no doble seis to lead with, and no word on how a pair wins a tranque.
    page.get_by_label(words["rules.preset"]).select_option("tres")
    check("tres")
    # The mode is an option too: back to parejas on the same preset, the chairs follow.
    options.locator("[name=first_lead]").select_option("sorteo")
    options.locator("[name=mode]").select_option("parejas")
    expect(page.locator("#seats-fields input")).to_have_count(4)
    expect(options.locator("[name=tranque_rule]")).to_have_count(1)
    expect(options.locator("[name=first_lead]")).to_have_value("sorteo")
    # In English the same keys name them, and what was chosen stays chosen.
    english = httpx.get(f"{sqlite_server.url}/i18n/en.json").json()
    page.locator("#lang").click()
    expect(options.locator("label:has([name=first_lead]) > span")).to_have_text(
        english["option.first_lead"]
    )
    expect(page.locator("#preset-label")).to_have_text(english["rules.preset"])
    expect(options.locator("[name=first_lead]")).to_have_value("sorteo")
    expect(page.locator("#seats-fields input")).to_have_count(4)
    context.close()


def test_the_bar_answers_from_the_moment_it_shows(
    browser: object, sqlite_server: ServerProcess
) -> None:
    """A tap on «Dominó» made the instant the bar appears opens the hand: the page shows the
    sheet only once it is loaded and its buttons listen. (The tap is made by the page itself, in
    the same turn of its event loop as the bar appearing, which no test's polling could match.)"""
    from playwright.sync_api import expect

    from tests.anotador.test_api import new_mesa

    code = new_mesa(sqlite_server)["code"]
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")  # type: ignore[attr-defined]
    page = context.new_page()
    page.add_init_script(
        """addEventListener("DOMContentLoaded", () => {
            const bar = document.getElementById("bar");
            new MutationObserver((_, watcher) => {
              if (bar.hidden) return;
              watcher.disconnect();
              document.getElementById("btn-domino").click();
            }).observe(bar, { attributes: true });
          });"""
    )
    page.goto(f"{sqlite_server.url}/anotador/?mesa={code}")
    expect(page.locator("#entry")).to_be_visible()
    expect(page.get_by_test_id("who").get_by_role("button")).to_have_text(
        ["Ana", "Beto", "Carla", "Diego"]
    )
    context.close()


def test_a_code_the_server_does_not_know_is_said_in_the_players_language(
    browser: object, sqlite_server: ServerProcess
) -> None:
    """A mistyped mesa code leads to the page where a mesa is made, which says that no such mesa
    exists (in the player's language), instead of an empty sheet whose buttons do nothing; a
    mesa of the recent list that the server no longer keeps leaves the list."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="es-ES")  # type: ignore[attr-defined]
    page = context.new_page()
    page.goto(f"{sqlite_server.url}/anotador/")
    recent = [{"code": "ZZZZZZ", "name": "La del club"}, {"code": "YYYYYY", "name": "En casa"}]
    page.evaluate("(r) => localStorage.setItem('fichaflow-anotador-mesas', r)", json.dumps(recent))
    page.goto(f"{sqlite_server.url}/anotador/?mesa=ZZZZZZ")
    expect(page.locator("#setup-error")).to_contain_text("No existe la mesa «ZZZZZZ»")
    expect(page.get_by_role("button", name="Crear mesa")).to_be_visible()
    expect(page.locator("#sheet")).to_be_hidden()
    expect(page.locator("#bar")).to_be_hidden()
    expect(page.locator("#recent-list li")).to_have_text(["En casa"])  # not «La del club»
    # ... and in English to a player who chose it.
    page.evaluate("localStorage.setItem('fichaflow.lang', 'en')")
    page.reload()
    expect(page.locator("#setup-error")).to_contain_text("There is no mesa «ZZZZZZ»")
    context.close()
