"""The browser client's tests: Debian's Chromium, driven by Playwright, against a real
``fichaflow serve`` process on a free port with its own SQLite database.

Without Playwright or a Chromium these tests skip and say why. Playwright's own browser download
is never used: the executable comes from ``FICHAFLOW_CHROMIUM`` or ``/usr/bin/chromium``."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.server.kit import ServerProcess

CHROMIUM_ARGS = [
    "--no-sandbox",  # the tests may run as root
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def chromium_path() -> str:
    return os.environ.get("FICHAFLOW_CHROMIUM") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module. (Not per session: Playwright's synchronous API keeps an event
    loop running while it is open, and tests elsewhere call asyncio.run.)"""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed: pip install -e '.[test]'"
    )
    executable = chromium_path()
    if not Path(executable).exists():
        pytest.skip(
            f"no Chromium at {executable}: install Debian's chromium package "
            "(apt-get install chromium) or set FICHAFLOW_CHROMIUM"
        )
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """``fichaflow serve`` in a subprocess, on a new SQLite file."""
    process = ServerProcess(f"sqlite:///{tmp_path / 'web.sqlite3'}")
    process.start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """Pages in contexts of their own (separate storage: separate people), closed at the end."""
    contexts: list[Any] = []

    def make(width: int = 390, height: int = 844, locale: str = "es-ES") -> Any:
        context = browser.new_context(
            viewport={"width": width, "height": height}, locale=locale, device_scale_factor=2
        )
        context.set_default_timeout(20_000)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors  # checked by the tests: the page must never throw
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
