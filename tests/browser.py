"""Chromium for the browser tests: Debian's ``chromium`` (``FICHAFLOW_CHROMIUM`` or
``/usr/bin/chromium``), driven by Playwright for Python; Playwright's own browser download is never
used. Without Playwright or a Chromium the tests skip and say why. Test modules import the
fixtures they use from here; the screenshots they take go to ``docs/screenshots``."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",  # the tests may run as root
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"


def chromium_path() -> str | None:
    for candidate in (os.environ.get("FICHAFLOW_CHROMIUM"), "/usr/bin/chromium"):
        if candidate and Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module. (Not per session: Playwright's synchronous API keeps an event
    loop running while it is open, and tests elsewhere call asyncio.run.)"""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is not installed: pip install -e '.[test]'"
    )
    executable = chromium_path()
    if executable is None:
        pytest.skip(
            "no Chromium: install Debian's chromium package (apt-get install chromium) "
            "or set FICHAFLOW_CHROMIUM"
        )
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="session")
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
