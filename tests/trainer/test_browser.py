"""The Problemas page (/problemas/) in Chromium on a 360 x 740 phone, served by uvicorn on
127.0.0.1 with the trainer's endpoints on a real SQLite database and the two puzzles of
tests/trainer/test_api.py: a right answer plays the line on and the rating rises; a wrong one
says what it loses and why, and the rating falls (both in the full run: the quick run solves a
shipped problema on a real server, and takes the docs' screenshots, in test_shipped_browser)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse

from fichaflow import i18n
from fichaflow.app import WEB
from fichaflow.http import HttpLimits
from fichaflow.http.security import SecurityHeaders
from fichaflow.http.static import Page, StaticAssets
from fichaflow.storage import Database, migrate
from fichaflow.trainer import router as trainer
from tests.axe import assert_accessible
from tests.server.kit import free_port
from tests.trainer.test_api import Fixture, fake_accounts
from tests.web.test_axe import STRUCTURE

PHONE = {"width": 360, "height": 740}


class OnlyUno(Fixture):
    def ids(self) -> list[str]:
        return ["uno"]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("trainer-browser")
    database = Database(f"sqlite:///{folder / 'fichaflow.sqlite3'}")
    migrate(database.engine)
    app = FastAPI()
    app.add_middleware(SecurityHeaders)
    catalogues = {lang: Page(i18n.source(lang)) for lang in i18n.LANGUAGES}

    @app.get("/i18n/{lang}.json")
    async def catalogue(lang: str, request: Request) -> Response:
        if lang not in i18n.LANGUAGES:
            return JSONResponse({}, status_code=404)
        return catalogues[lang].answer(request.headers, "application/json")

    trainer.install(app, database, HttpLimits(0), OnlyUno(), fake_accounts({}))
    app.mount("/", StaticAssets(directory=WEB, html=True), name="web")
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            httpx.get(f"{url}/api/problemas/daily", timeout=1)
            break
        except httpx.HTTPError:
            time.sleep(0.05)
    yield url
    server.should_exit = True
    thread.join(10)
    database.close()


def _phone(browser: Any, site: str) -> tuple[Any, Any]:
    from playwright.sync_api import expect

    context = browser.new_context(viewport=PHONE, locale="es-ES")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{site}/problemas/")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    assert errors == []
    expect(page.locator("#question")).to_have_text("¿Qué ficha juegas, y en qué punta?")
    expect(page.locator("#rating")).to_have_text("1500")
    return context, page


@pytest.mark.slow  # the quick run solves a shipped one on a real server (test_shipped_browser)
def test_a_right_answer_plays_the_line_on_and_the_rating_rises(
    browser: Any, site: str, shots: Path
) -> None:
    from playwright.sync_api import expect

    context, page = _phone(browser, site)
    expect(page.locator("#line svg")).to_have_count(2)
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= 360, f"the page scrolls sideways: {width}"
    assert_accessible(page, "a puzzle", also=STRUCTURE)
    page.locator("#hand button[data-tile='6-4']").click()
    expect(page.locator("#right")).to_be_disabled()  # 6-4 does not go on the 3
    page.locator("#left").click()
    expect(page.locator("#verdict h2")).to_have_text("¡Resuelto!")
    expect(page.locator("#verdict")).to_contain_text("Responden: 4-2, pasa, pasa")
    expect(page.locator("#line svg")).to_have_count(4)  # 6-4, then their 4-2
    expect(page.locator("#ends")).to_have_text("Puntas: 2 a la izquierda, 3 a la derecha")
    shown = int(page.locator("#rating").inner_text())
    assert shown > 1500
    expect(page.locator("#change")).to_have_text(f"+{shown - 1500}")
    expect(page.locator("#history li")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    # the rating is the browser's: a reload shows it again
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    expect(page.locator("#rating")).to_have_text(str(shown))
    context.close()


@pytest.mark.slow
def test_a_wrong_answer_says_what_it_loses_and_why_and_the_rating_falls(
    browser: Any, site: str, shots: Path
) -> None:
    from playwright.sync_api import expect

    context, page = _phone(browser, site)
    page.locator("#hand button[data-tile='3-1']").click()
    page.locator("#right").click()
    expect(page.locator("#verdict h2")).to_have_text("No es esa")
    expect(page.locator("#verdict .cost")).to_have_text(
        "Esa jugada pierde 9 tantos. La buena era 6-4:left."
    )
    expect(page.locator("#verdict .why")).to_contain_text("«3-1:right» no es una jugada")
    assert int(page.locator("#rating").inner_text()) < 1500
    expect(page.locator("#line svg")).to_have_count(2)  # the wrong move is not played
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.locator("#lang").click()
    expect(page.locator("#verdict h2")).to_have_text("Not that one")
    expect(page.locator("#verdict .why")).to_contain_text("is not a move")
    context.close()
