"""A whole partida against three bots, played by clicking: the lobby, end choices, passes, each
hand's summary with the fair-deal check, the anotador and the partida's winner. What the page
showed is checked against the server's record replayed by the rules core."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.server.kit import ServerProcess
from tests.web.driver import Player, create_mesa, recorded_partida, seat_moves, start

BOTS = {1: "tirafichas", 2: "tirapuntos", 3: "acuestafichas"}
MAX_PARTIDAS = 25  # a pass and an end choice each come within ~2 partidas on average


@pytest.mark.slow
def test_a_partida_against_three_bots_by_clicking(
    web_server: ServerProcess, new_page: Callable[..., Any], shots: Path
) -> None:
    page = new_page(1280, 800)
    code = create_mesa(page, web_server.url, "Ana", "dominicana", 10, BOTS)

    # The lobby: the invitation link, every chair, the rules in words.
    link = page.locator("#invite-link").input_value()
    assert link == f"{web_server.url}/m/{code}"
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copiar").click()
    expect(page.locator(".toast")).to_contain_text("Enlace copiado")
    assert page.evaluate("navigator.clipboard.readText()") == link
    expect(page.locator(".toast")).to_have_count(0, timeout=10_000)
    chairs = page.locator(".chair-name")
    expect(chairs).to_have_text(
        [
            re.compile("Ana"),
            re.compile("tirafichas", re.I),
            re.compile("tirapuntos", re.I),
            re.compile("acuestafichas", re.I),
        ]
    )
    expect(page.locator(".rules-summary")).to_contain_text("Con el de abajo")
    # Under "con el de abajo" a tie is the trancador's: no tie rule to talk over.
    expect(page.locator(".rules-summary")).not_to_contain_text("Empate en el tranque")
    page.screenshot(path=str(shots / "web-sala.png"), full_page=True)
    start(page)

    me = Player(page)
    partidas = 0

    pictured: list[bool] = []

    def picture_of_a_choice() -> None:
        # The first time both ends light up on a line of some length (or a later plain turn).
        if not pictured and page.locator(".line-tile").count() >= 5:
            page.wait_for_timeout(1500)  # the table has said its piece
            page.screenshot(path=str(shots / "web-mano.png"))
            pictured.append(True)

    me.before_choice = picture_of_a_choice
    while partidas < MAX_PARTIDAS:
        partidas += 1
        number = partidas
        hands = 0
        passes_before, choices_before = me.passes, len(me.choices)
        while True:
            # Play this hand to its end (a picture is taken at the first end choice).
            while not me.summary_open():
                if not pictured and me.playable() and page.locator(".line-tile").count() >= 8:
                    picture_of_a_choice()  # no choice came with a long line: a plain turn
                if me.act() is None:
                    page.wait_for_timeout(60)
            hands += 1
            summary = page.locator("[data-dialog=summary-dialog]")
            expect(summary.locator(".fair.ok")).to_contain_text("Reparto limpio")
            expect(summary.locator(".explanation p").first).not_to_be_empty()
            # Every hand face up: four rows, each with the seat's pips.
            expect(summary.locator(".hands-up tbody tr")).to_have_count(4)
            if summary.locator("[data-key=new-partida]").count():
                break
            summary.locator("[data-key=next-hand]").click()
            expect(summary).to_have_count(0)

        # The partida is over: the page and the record (replayed by the core) agree.
        partida = recorded_partida(web_server.url, code, number)
        assert partida.over and len(partida.played) == hands
        assert partida.winner is not None
        winner_names = {0: "Ana y tirapuntos", 1: "tirafichas y acuestafichas"}[partida.winner]
        expect(summary.locator(".partida-end .winner")).to_contain_text(winner_names)
        if partida.zapato:
            expect(summary.locator(".partida-end")).to_contain_text("¡Zapato!")
        choices, passes = seat_moves(partida, 0)
        assert sorted(me.choices[choices_before:]) == sorted(choices), "the chosen ends were played"
        assert me.passes - passes_before == passes
        if partidas == 1:
            page.screenshot(path=str(shots / "web-resumen.png"))
            check_repaso_link(page, code, number, hands)
            check_sheet(page, partida)
        if me.choices and me.passes:
            break
        summary.locator("[data-key=new-partida]").click()
        expect(summary).to_have_count(0)

    assert me.choices, "no end choice came up in the partidas played"
    assert me.passes, "no pass came up in the partidas played"
    assert page.js_errors == []


def check_repaso_link(page: Any, code: str, partida: int, hand: int) -> None:
    """The summary links to the Repaso of this very hand, from the player's seat."""
    link = page.locator("[data-key=repaso]")
    expect(link).to_have_count(1)
    href = link.get_attribute("href")
    assert href is not None and href.startswith("/repaso/?")
    query = dict(pair.split("=") for pair in href.split("?", 1)[1].split("&"))
    assert query["mesa"] == code and query["asiento"] == "0"
    assert (query["partida"], query["mano"]) == (str(partida), str(hand))


def check_sheet(page: Any, partida: Any) -> None:
    """The anotador: one row per hand, the core's totals, the target and the winner."""
    page.locator("[data-key=see-line]").click()
    page.locator("[data-key=open-sheet]").click()
    sheet = page.locator(".sheet")
    expect(sheet.locator("tbody tr")).to_have_count(len(partida.played))
    totals = sheet.locator("tfoot td").all_inner_texts()
    assert [int(t) for t in totals] == list(partida.scores)
    expect(page.locator(".sheet-note")).to_contain_text("Ganan")
    page.keyboard.press("Escape")
    expect(sheet).to_have_count(0)
    page.locator("[data-key=open-summary]").click()


def test_the_home_page_explains_every_rule_in_spanish(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    page = new_page(360, 740)
    page.goto(f"{web_server.url}/")
    page.locator(".rule-options summary").click()
    answer = httpx.get(f"{web_server.url}/api/presets").json()
    for option in answer["presets"]["venezuela"]:
        row = page.locator(".option-row").filter(has=page.locator(f"[name={option}]"))
        expect(row).to_have_count(1)
        hint = row.locator(".hint").inner_text()
        assert len(hint) > 20 and not hint.startswith("option_hint"), (option, hint)
    # Numbers take the range the server describes (the core's), and the target's hint says it.
    for spec in answer["options"]:
        if spec["kind"] == "integer":
            field = page.locator(f".create-form [name={spec['name']}]")
            expect(field).to_have_attribute("min", str(spec["min"]))
            expect(field).to_have_attribute("max", str(spec["max"]))
    expect(page.locator(".option-row").filter(has=page.get_by_label("Meta"))).to_contain_text(
        "de 10 a 500"
    )
    # De a tres the fewest pips win a tranque: how a pair wins one is not asked, and the first
    # lead offers what a stock allows (the cochina stays shown while it is still chosen).
    page.locator("#create-mode").select_option("tres")
    expect(page.locator("#create-tranque_rule")).to_have_count(0)
    page.locator("#create-first_lead").select_option("sorteo")
    first = page.locator("#create-first_lead option")
    assert first.evaluate_all("(os) => os.map((o) => o.value)") == ["sorteo", "doble_mayor"]
    page.locator("#create-mode").select_option("parejas")
    expect(page.locator("#create-tranque_rule")).to_have_count(1)
    # A target out of range gets the server's Spanish message and creates nothing.
    page.get_by_label("Meta").fill("600")
    page.get_by_role("button", name="Crear la mesa").click()
    expect(page.locator(".form-error")).to_contain_text("de 10 a 500")
    assert httpx.get(f"{web_server.url}/api/health").json()["mesas"] == 0
    # English is one tap away, and comes back after a reload.
    page.get_by_role("button", name="English").click()
    expect(page.get_by_role("button", name="Create the mesa")).to_be_visible()
    page.reload()
    expect(page.get_by_role("button", name="Create the mesa")).to_be_visible()
    assert page.js_errors == []
