"""Every page works under its Content-Security-Policy (no inline script, no inline style): the
lobby and a mesa's table with both ends lit, the anotador's form and sheet, the Repaso, and the
anotador's printable export. Chromium reports what a policy blocks as a
``securitypolicyviolation`` event and a console error; each page is used as a person would and
must report none, and must show what it is for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.server.kit import ServerProcess
from tests.web.driver import create_mesa, start

pytestmark = pytest.mark.slow  # browser checks of #15's fixes and the policy; the page tests
# of tests/web, tests/anotador and tests/review keep each page in the quick run

RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  const { violatedDirective, blockedURI, sourceFile, lineNumber } = event;
  window.__violations.push(`${violatedDirective} ${blockedURI} ${sourceFile}:${lineNumber}`);
});
"""
PLAYERS = ["Ana", "Beto", "Carla", "Diego"]
SEED_TRANQUE = {"type": "hand", "end": "tranque", "seat": 0, "pips": [8, 11, 7, 14], "leader": 0}


def watched(page: Any) -> Any:
    """The page, recording every policy violation it reports (event and console alike)."""
    page.add_init_script(RECORD_VIOLATIONS)
    page.console_violations = []
    page.on(
        "console",
        lambda message: (
            page.console_violations.append(message.text)
            if "Content Security Policy" in message.text
            else None
        ),
    )
    return page


def visit(page: Any, url: str) -> None:
    """Open ``url`` and check that the answer carries the policy the page is tested under."""
    response = page.goto(url)
    assert response is not None and response.ok, url
    policy = response.header_value("content-security-policy")
    assert policy is not None and "script-src 'self';" in policy, url


def assert_no_violations(page: Any) -> None:
    assert page.evaluate("window.__violations") == []
    assert page.console_violations == []
    assert page.js_errors == []


def test_the_game_pages_run_under_the_policy(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    page = watched(new_page())
    visit(page, f"{web_server.url}/")
    expect(page.get_by_label("Tu nombre")).to_be_visible()
    assert_no_violations(page)

    # Create a mesa (a POST from the page itself passes the origin check), seat a bot, start.
    code = create_mesa(page, web_server.url, "Ana", "mano_a_mano", 60, {1: "tirafichas"})
    visit(page, f"{web_server.url}/m/{code}")
    expect(page.locator(".chair-ring")).to_be_visible()
    start(page)
    expect(page.locator(".hand-tile").first).to_be_visible()
    # Both ends lit for a choice: the buttons are placed by style, which the policy must allow.
    page.evaluate(
        """async () => {
          const { layoutTable } = await import('/js/table.js');
          const chain = [[6, 6], [6, 4], [4, 1]];
          const view = { line: chain, history: chain.map(() => ({ kind: 'play', end: 'right' })),
                         ends: [6, 1] };
          const app = { state: { view, choosing: { tile: '6-1' } }, chooseEnd() {},
                        cancelChoice() {} };
          layoutTable(app, document.getElementById('app'));
        }"""
    )
    left, right = page.locator(".end-choice.end-left"), page.locator(".end-choice.end-right")
    expect(left).to_be_visible()
    one, other = left.bounding_box(), right.bounding_box()
    assert one is not None and other is not None
    assert one["width"] >= 44 and one["x"] + one["width"] <= other["x"]
    assert_no_violations(page)


def test_the_anotador_runs_under_the_policy(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    page = watched(new_page())
    visit(page, f"{web_server.url}/anotador/")
    page.get_by_label("Nombre de la mesa").fill("Patio")
    page.get_by_label("Reglamento").select_option("dominicana")
    for seat, name in enumerate(PLAYERS):
        page.locator(f"input[name=player{seat}]").fill(name)
    page.get_by_role("button", name="Crear mesa").click()
    expect(page.locator("#sheet")).to_be_visible()
    code = page.evaluate("new URLSearchParams(location.search).get('mesa')")
    entry = {"key": "csp-test-first-hand", "action": SEED_TRANQUE}
    saved = httpx.post(f"{web_server.url}/api/anotador/mesas/{code}/actions", json=entry)
    assert saved.status_code == 200, saved.text
    page.reload()
    expect(page.get_by_test_id("total-0")).to_have_text("40")
    # The next hand's leader is known: the entry offers to change it, with a styled button.
    page.get_by_role("button", name="Dominó").click()
    page.get_by_test_id("who").get_by_role("button", name="Beto").click()
    expect(page.locator("#entry").get_by_role("button", name="cambiar")).to_be_visible()
    assert_no_violations(page)

    # The printable export keeps its own style block, allowed by its hash alone.
    export = watched(new_page())
    visit(export, f"{web_server.url}/api/anotador/export/{code}/1.html")
    expect(export.locator("h1")).to_contain_text("Patio")
    collapse = export.evaluate("getComputedStyle(document.querySelector('table')).borderCollapse")
    assert collapse == "collapse"
    assert_no_violations(export)


def test_the_repaso_runs_under_the_policy(
    web_server: ServerProcess, new_page: Callable[..., Any]
) -> None:
    page = watched(new_page())
    visit(page, f"{web_server.url}/repaso/")
    expect(page.get_by_role("button", name="Analizar")).to_be_visible()
    expect(page.locator("#lang")).to_have_text("English")
    page.locator("#lang").click()
    expect(page.get_by_role("button", name="Analyse")).to_be_visible()
    assert_no_violations(page)
