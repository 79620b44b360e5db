"""How chairs are called and where a new mesa starts (#15): one name per chair in the waiting room,
at the table and in the records (a bot by its word, numbered when two share it, marked «bot»);
two long names with the same beginning stay tellable apart on a 360 px phone; and a browser set
to es-VE starts on Venezuela's table, es-DO on the Dominican one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.marks import slow_except
from tests.server.kit import ServerProcess
from tests.web.driver import create_mesa, start

REGIONS = {"es-VE": "venezuela", "es-DO": "dominicana", "en-US": None}


@pytest.mark.parametrize("locale", slow_except(REGIONS, quick=["es-VE"]))
def test_the_default_rules_follow_the_browsers_region(
    web_server: ServerProcess, new_page: Callable[..., Any], locale: str
) -> None:
    preset = REGIONS[locale]
    answer = httpx.get(f"{web_server.url}/api/presets").json()
    expected = preset or answer["default_preset"]
    page = new_page(locale=locale)
    page.goto(f"{web_server.url}/")
    expect(page.get_by_label("Reglamento")).to_have_value(expected)
    # The anotador's form starts from the same rules.
    page.goto(f"{web_server.url}/anotador/")
    expect(page.locator("#preset")).to_have_value(expected)
    assert page.js_errors == []


@pytest.mark.slow  # #15's browser checks run in the full set
def test_a_bot_has_one_name_in_the_lobby_at_the_table_and_in_the_record(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    page = new_page(360, 740)
    code = create_mesa(
        page, web_server.url, "Ana", "dominicana", 100, {1: "gallo", 2: "tirafichas", 3: "gallo"}
    )
    for seat in (1, 3):
        chair = page.locator(f".chair[data-seat='{seat}'] .chair-name")
        expect(chair).to_have_text(f"gallo {seat + 1} bot")
        expect(chair.locator(".tag.bot")).to_have_text("bot")
    start(page)
    for seat in (1, 3):
        player = page.locator(f".player[data-seat='{seat}']")
        expect(player.locator(".name")).to_have_text(f"gallo {seat + 1}")
        expect(player.locator(".tag.bot")).to_have_text("bot")
    # The mesa's panel during play says the same.
    page.get_by_role("button", name="Mesa").click()
    expect(page.locator(".mesa-seats")).to_contain_text("gallo 2 bot")
    expect(page.locator(".mesa-seats")).to_contain_text("gallo 4 bot")
    record = httpx.get(f"{web_server.url}/api/mesas/{code}/partidas/1/record").json()
    assert record["players"] == ["Ana", "gallo 2", "tirafichas", "gallo 4"]
    assert page.js_errors == []


LONG = ("Maximiliano Alejandro Ramos", "Maximiliano Alejandro Rivas")

SHOWN = """() => [...document.querySelectorAll('.player')].map((chip) => {
  const name = chip.querySelector('.name'), tail = name.querySelector('.cut-tail');
  const head = name.querySelector('.cut-head');
  const box = name.getBoundingClientRect(), end = tail.getBoundingClientRect();
  return { seat: Number(chip.dataset.seat), title: name.title, tail: tail.textContent,
           cut: head.scrollWidth > head.clientWidth,
           tailShown: end.width > 0 && end.right <= box.right + 0.5 && end.right <= innerWidth };
})"""


@pytest.mark.slow
def test_two_long_names_stay_tellable_apart_on_a_phone(
    web_server: ServerProcess, new_page: Callable[..., Any], shots: Path
) -> None:
    host = new_page(360, 740)
    create_mesa(
        host, web_server.url, LONG[0], "dominicana", 100, {1: "tirafichas", 3: "tirafichas"}
    )
    link = host.locator("#invite-link").input_value()
    guest = new_page(360, 740)
    guest.goto(link)
    guest.get_by_label("Tu nombre").fill(LONG[1])
    guest.get_by_role("button", name="Sentarme a jugar").click()
    expect(host.locator(".chair[data-seat='2'] .chair-name")).to_contain_text(LONG[1])
    miron = new_page(360, 740)
    miron.goto(link)
    miron.get_by_role("button", name="Solo mirar").click()
    start(host)
    # A mirón sees both chairs; each player sees the other's.
    for page, seats in ((miron, (0, 2)), (host, (2,)), (guest, (0,))):
        expect(page.locator(f".player[data-seat='{seats[0]}'] .name")).to_be_visible()
        shown = {chip["seat"]: chip for chip in page.evaluate(SHOWN)}
        ours = [shown[seat] for seat in seats]
        # Too long for the chip: cut, yet each keeps its own end in sight, and its whole name.
        assert all(chip["cut"] and chip["tailShown"] for chip in ours), ours
        assert [chip["tail"].strip() for chip in ours] == [
            ["Ramos", "Rivas"][s // 2] for s in seats
        ]
        assert [chip["title"] for chip in ours] == [LONG[s // 2] for s in seats]
    miron.screenshot(path=str(shots / "nombres-largos-360.png"))
    assert host.js_errors == [] and guest.js_errors == [] and miron.js_errors == []


SIMILAR = ("Carolina Rodríguez", "Carolina Ramírez")

SCORES = """() => [...document.querySelectorAll('.score:not(.target) .score-side')].map((side) => {
  const head = side.querySelector('.cut-head'), tail = side.querySelector('.cut-tail');
  const box = side.getBoundingClientRect(), end = tail.getBoundingClientRect();
  return { title: side.closest('.score').title, name: side.querySelector('.cut-name').title,
           tail: tail.textContent.trim(), cut: head.scrollWidth > head.clientWidth,
           // The surname's start is on screen, inside its box, with room for a few letters.
           tailStart: end.left >= box.left - 0.5
             && end.left + 18 <= Math.min(box.right, innerWidth) };
})"""


@pytest.mark.slow
def test_the_score_boxes_cut_two_similar_names_in_the_middle_on_a_phone(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    host = new_page(360, 740)
    create_mesa(host, web_server.url, SIMILAR[0], "mano_a_mano", 100, {})
    link = host.locator("#invite-link").input_value()
    guest = new_page(360, 740)
    guest.goto(link)
    guest.get_by_label("Tu nombre").fill(SIMILAR[1])
    guest.get_by_role("button", name="Sentarme a jugar").click()
    expect(host.locator(".chair[data-seat='1'] .chair-name")).to_contain_text(SIMILAR[1])
    start(host)
    for page in (host, guest):
        expect(page.locator(".score-side .cut-name").first).to_be_visible()
        boxes = page.evaluate(SCORES)
        # Too long for a box at 360 px: cut in the middle, so each keeps the start of its own
        # surname in sight (not «CAROLINA…» twice); the box and the name carry the whole name.
        assert [box["tail"] for box in boxes] == ["Rodríguez", "Ramírez"], boxes
        assert all(box["cut"] and box["tailStart"] for box in boxes), boxes
        assert [box["title"] for box in boxes] == list(SIMILAR)
        assert [box["name"] for box in boxes] == list(SIMILAR)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert host.js_errors == [] and guest.js_errors == []
