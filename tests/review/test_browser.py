"""The Repaso page in Chromium: a mesa's finished hand stepped through with the buttons and the
arrow keys, the chosen seat's decisions ranked, a record opened from a file, the language
switched, and the pista at a mesa of bots. The screenshot, repaso.png, goes to the ``shots``
folder (tests/browser.py).

Debian's chromium is driven by Playwright (``FICHAFLOW_CHROMIUM`` or ``/usr/bin/chromium``);
without either the tests skip and say why."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from fichaflow.core.record import hand_dump
from tests.review.helpers import played
from tests.review.mesas import ana_plays_a_hand, bots_play_a_hand, my_turn_against_bots
from tests.review.records import LAST_TILES
from tests.server.kit import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("repaso-browser")
    with ServerProcess(f"sqlite:///{Path(folder) / 'repaso.sqlite3'}") as process:
        yield process


def _run(work: Any) -> Any:
    """Run a coroutine to its end in a thread of its own (Playwright's loop runs in this one)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, work).result()


def _counter(page: Any) -> tuple[int, int]:
    found = re.fullmatch(r"(\d+) (?:de|of) (\d+)", page.locator("#counter").inner_text())
    assert found, page.locator("#counter").inner_text()
    return int(found[1]), int(found[2])


@pytest.mark.slow
def test_stepping_through_a_mesas_hand_with_its_review(
    browser: Any, server: ServerProcess, shots: Path
) -> None:
    from playwright.sync_api import expect

    code = _run(ana_plays_a_hand(server))
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="es-ES")
    page = context.new_page()
    page.goto(f"{server.url}/repaso/?mesa={code}&partida=1&mano=1&asiento=0&precision=fast")
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#step-text")).to_contain_text("Reparto: sale")
    assert _counter(page)[0] == 0
    seats = page.locator("#seats .seat")
    expect(seats).to_have_count(4)
    for seat in range(4):  # every seat's seven tiles, face up, drawn as SVG
        expect(seats.nth(seat).locator("svg.tile")).to_have_count(7)

    # The review arrives: one button per decision of Ana's.
    buttons = page.locator("#decisions button")
    expect(buttons.first).to_be_visible(timeout=60_000)
    expect(page.locator("#summary")).to_contain_text("Ana: ")
    expect(page.locator("#seats .seat").nth(2)).to_contain_text("jugador")
    count = buttons.count()

    # Arrow keys and buttons step through the line.
    page.keyboard.press("ArrowRight")
    assert _counter(page)[0] == 1
    expect(page.locator("#step-text")).to_contain_text("sale con el 6-6")
    expect(page.locator("#line svg.tile")).to_have_count(1)
    page.locator("#next").click()
    assert _counter(page)[0] == 2
    page.locator("#prev").click()
    page.keyboard.press("ArrowLeft")
    assert _counter(page)[0] == 0

    # A decision: the position before Ana's move, her moves ranked best first.
    buttons.nth(count - 1).click()
    decision = page.locator("article.decision")
    expect(decision).to_be_visible()
    index = int(decision.get_attribute("data-index") or "-1")
    assert _counter(page)[0] == index
    expect(page.locator("#seats .seat.to-move")).to_have_attribute("data-seat", "0")
    rows = decision.locator("table.ranking tbody tr")
    assert rows.count() >= 2
    expect(rows.first).to_have_class(re.compile(r"\bbest\b"))
    expect(rows.first.locator("td").last).to_contain_text("la mejor")
    expect(decision.locator("th")).to_have_text(
        ["#", "Jugada", "Esperado", "Ganar", "Real", "Veredicto"]
    )
    page.screenshot(path=str(shots / "repaso.png"), full_page=True)

    # One step on, the move she played is marked in the same ranking.
    page.keyboard.press("ArrowRight")
    expect(decision.locator("tr.played")).to_have_count(1)
    expect(decision.locator("tr.played")).to_contain_text("jugó")

    # The end of the hand and how it was scored.
    page.keyboard.press("End")
    first, total = _counter(page)
    assert first == total
    expect(page.locator("#step-text .result")).to_contain_text("Resultado")
    expect(page.locator("#next")).to_be_disabled()

    # In English.
    page.locator("#lang").click()
    expect(page.locator("#analysis h2")).to_have_text("Analysis")
    expect(page.locator("#counter")).to_contain_text(" of ")

    # Four bots of one kind: each is told apart by its seat.
    bots = _run(bots_play_a_hand(server))
    page.goto(f"{server.url}/repaso/?mesa={bots}&partida=1&mano=1")
    expect(page.locator("#seats .seat").nth(2)).to_contain_text("tirafichas 3")
    context.close()


def test_a_record_from_a_file_shows_the_thrown_away_domino(
    browser: Any, server: ServerProcess, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    path = tmp_path / "mano.json"
    path.write_text(json.dumps(LAST_TILES), encoding="utf-8")
    page = browser.new_page(viewport={"width": 420, "height": 900}, locale="es-ES")
    page.goto(f"{server.url}/repaso/")
    page.locator("input[type=file]").set_input_files(str(path))
    expect(page.locator("#board")).to_be_visible()
    page.locator("select[name=asiento]").select_option("1")
    page.locator("select[name=precision]").select_option("fast")
    page.get_by_role("button", name="Analizar").click()
    last = page.locator("#decisions button").last
    expect(last).to_be_visible(timeout=60_000)
    expect(last).to_contain_text("Jugada 24: error: −21.0")
    last.click()
    rows = page.locator("article.decision tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("3-1 izquierda")
    expect(rows.nth(0)).to_contain_text("+24.0")
    expect(rows.nth(1)).to_contain_text("error: −21.0")
    page.keyboard.press("ArrowRight")
    expect(page.locator("article.decision tr.played")).to_contain_text("6-4 derecha")
    expect(page.locator("#legend_tres")).to_be_hidden()  # two sides: nothing to add

    # De a tres: the legend says the exact values take both rivals together against the seat.
    subject = played("tres", 3)
    record = {"rules": "tres", "hands": [hand_dump(subject.deal, subject.hand)]}
    path.write_text(json.dumps(record), encoding="utf-8")
    page.goto(f"{server.url}/repaso/")
    page.locator("input[type=file]").set_input_files(str(path))
    expect(page.locator("#board")).to_be_visible()
    page.locator("select[name=precision]").select_option("fast")
    page.get_by_role("button", name="Analizar").click()
    expect(page.locator("#decisions button").first).to_be_visible(timeout=60_000)
    expect(page.locator("#legend_tres")).to_be_visible()
    expect(page.locator("#legend_tres")).to_contain_text("los dos rivales juegan juntos contra ti")
    page.close()


@pytest.mark.slow  # a whole hand reviewed; tests/review/test_plain.py holds the words quickly
def test_a_decision_in_plain_words_and_when_the_real_hands_disagree(
    browser: Any, server: ServerProcess, tmp_path: Path, shots: Path
) -> None:
    """After the move, the decision says what it won or lost in tantos against the best one and,
    where the real hands disagree with that verdict, says so: bad luck is not a mistake."""
    import httpx
    from playwright.sync_api import expect

    subject = played("venezuela", 6)  # seat 0: its first decision is punished by the tiles
    record = {"rules": "venezuela", "hands": [hand_dump(subject.deal, subject.hand)]}
    body = {"record": record, "hand": 1, "seat": 0, "precision": "fast"}
    review = httpx.post(f"{server.url}/api/repaso", json=body, timeout=120).json()["review"]
    decisions = review["decisions"]
    agreeing = next(d for d in decisions if d["plain"]["hindsight"] is None)
    disagreeing = next(d for d in decisions if d["plain"]["hindsight"] is not None)

    path = tmp_path / "mano.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    page = browser.new_page(viewport={"width": 420, "height": 900}, locale="es-ES")
    page.goto(f"{server.url}/repaso/")
    page.locator("input[type=file]").set_input_files(str(path))
    expect(page.locator("#board")).to_be_visible()
    page.locator("select[name=asiento]").select_option("0")
    page.locator("select[name=precision]").select_option("fast")
    page.get_by_role("button", name="Analizar").click()
    buttons = page.locator("#decisions button")
    expect(buttons.first).to_be_visible(timeout=60_000)
    box = page.locator("article.decision")
    for decision in (agreeing, disagreeing):
        buttons.nth(decisions.index(decision)).click()
        expect(box.locator(".plain")).to_have_count(0)  # before the move: nothing given away
        page.keyboard.press("ArrowRight")
        verdict = box.locator(".plain-verdict")
        expect(verdict).to_have_text(decision["plain"]["verdict"]["es"])
        expect(verdict).to_contain_text(re.compile(r"^Jugaste \S+.*tantos? (más|menos)"))
        hindsight = box.locator(".plain-hindsight")
        if decision is agreeing:
            expect(hindsight).to_have_count(0)
            continue
        expect(hindsight).to_have_text(decision["plain"]["hindsight"]["es"])
        expect(hindsight).to_contain_text("Con las fichas que de verdad había")
        expect(hindsight).to_contain_text(re.compile(r"mala suerte, no fue un error|salía bien"))
        page.screenshot(path=str(shots / "repaso-en-palabras.png"), full_page=True)
    # In English too.
    page.locator("#lang").click()
    expect(box.locator(".plain-hindsight")).to_have_text(disagreeing["plain"]["hindsight"]["en"])
    page.close()


def test_the_pista_at_a_mesa_of_bots(browser: Any, server: ServerProcess) -> None:
    from playwright.sync_api import expect

    code, token, view = _run(my_turn_against_bots(server))
    page = browser.new_page(viewport={"width": 420, "height": 900}, locale="es-ES")
    page.goto(f"{server.url}/repaso/")
    # The game's page keeps the seat's token in this browser when the player joins.
    page.evaluate(
        "([code, token]) => localStorage.setItem(`fichaflow.mesa.${code}`, "
        "JSON.stringify({ token, person: 1 }))",
        [code, token],
    )
    page.goto(f"{server.url}/repaso/?mesa={code}&pista=1")
    page.get_by_role("button", name="Pedir pista").click()
    rows = page.locator(".pista table.ranking tbody tr")
    expect(rows.first).to_be_visible(timeout=60_000)
    shown = {row.get_attribute("data-move") for row in rows.all()}
    assert shown and shown <= set(view["legal"])
    expect(rows.first).to_contain_text("la mejor")
    page.close()
