"""The browser client's tests: Debian's Chromium, driven by Playwright, against a real
``fichaflow serve`` process on a free port with its own SQLite database.

Without Playwright or a Chromium these tests skip and say why. Playwright's own browser download
is never used: the executable comes from ``FICHAFLOW_CHROMIUM`` or ``/usr/bin/chromium``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.kit import TEST_SEED, ServerProcess


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[ServerProcess]:
    """``fichaflow serve`` in a subprocess, on a new SQLite file, dealing known hands."""
    with ServerProcess(f"sqlite:///{tmp_path / 'web.sqlite3'}", seed=TEST_SEED) as process:
        yield process


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
