"""A mesa played by time (a torneo's online table): the page shows the time left beside the
score, then «¡Tiempo!» once the server calls time, and the partida ends with the hand in play."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import expect

from tests.server.kit import ServerProcess
from tests.web.driver import Player, start


def test_the_table_shows_the_time_left_then_tiempo(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    body = {
        "rules": {"preset": "venezuela", "target": 500},
        "options": {"time_minutes": 0.1, "bot_pause_ms": 0},
        "seats": [None, "tirafichas", "tirapuntos", "acuestafichas"],
        "name": "Ana",
        "seat": 0,
    }
    made = httpx.post(f"{web_server.url}/api/mesas", json=body, timeout=30).json()
    code = made["code"]
    page = new_page(1024, 768)
    page.goto(f"{web_server.url}/")
    ticket = json.dumps({"token": made["token"], "person": made["person"]})
    keep = "([key, value]) => localStorage.setItem(key, value)"
    page.evaluate(keep, [f"fichaflow.mesa.{code}", ticket])
    page.goto(f"{web_server.url}/m/{code}")
    start(page)
    clock = page.locator(".score.time")
    expect(clock).to_contain_text("Tiempo")
    expect(clock.locator("[data-partida-clock]")).to_have_text(re.compile(r"^0:0\d$"))
    notice = page.locator(".score.time-up")
    me = Player(page)
    for _ in range(600):  # Ana plays until time is called (or her hand ends and she waits)
        if notice.count():
            break
        if me.summary_open() or me.act() is None:
            page.wait_for_timeout(100)
    expect(notice).to_contain_text("¡Tiempo!")
    expect(notice).to_contain_text("gana quien vaya delante")
    assert page.js_errors == []
