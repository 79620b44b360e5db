"""Chromium for the browser tests: Debian's ``chromium`` (``FICHAFLOW_CHROMIUM`` or
``/usr/bin/chromium``), driven by Playwright for Python; Playwright's own browser download is never
used. Without Playwright or a Chromium the tests skip and say why. Test modules import the
fixtures they use from here.

The screenshots the tests take go to a temporary folder of the run (its path is printed in the
summary), so that running the tests never rewrites the pictures in the docs; ``pytest
--update-screenshots`` writes them to ``docs/screenshots`` instead."""

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
DOCS_SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
UPDATE_SHOTS = "--update-screenshots"


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
    # An expectation waits 5 s by default: on a shared two-core machine, busy with servers and
    # bots of other tests, a page can take longer to answer a click. It still fails, later.
    sync_api.expect.set_options(timeout=15_000)
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


_SHOTS_TAKEN = pytest.StashKey[Path]()


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        UPDATE_SHOTS,
        action="store_true",
        help="write the browser tests' screenshots to docs/screenshots (default: a temp folder)",
    )


@pytest.fixture(scope="session")
def shots(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the browser tests save their screenshots: the docs' folder only when asked."""
    if request.config.getoption(UPDATE_SHOTS):
        DOCS_SHOTS.mkdir(parents=True, exist_ok=True)
        return DOCS_SHOTS
    folder = tmp_path_factory.mktemp("screenshots", numbered=False)
    request.config.stash[_SHOTS_TAKEN] = folder
    return folder


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Say where this run's screenshots are, so they can be looked at (or kept by CI)."""
    folder = config.stash.get(_SHOTS_TAKEN, None)
    if folder is not None:
        terminalreporter.write_line(
            f"screenshots: {folder} (pytest {UPDATE_SHOTS} updates the docs')"
        )
