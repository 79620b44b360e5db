"""Fixtures and options shared across the test folders: Chromium and screenshots for the browser
tests (tests/browser.py), and the slow tests.

A test marked ``slow`` (minutes of play, many servers, long timers) is left out of a bare
``pytest`` so that the default run stays short; ``pytest --slow`` runs everything, as CI does
(the README's test command). A slow test still runs when its file is named on the command line,
and ``-m`` selects by marker as usual (``pytest -m slow`` runs only the slow ones)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest_plugins = ["tests.browser"]

RUN_SLOW = "--slow"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        RUN_SLOW, action="store_true", help="also run the tests marked slow (CI runs them all)"
    )


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """What ``-n auto`` means here: the quick set spends about half its time waiting (servers and
    browsers starting, answers over sockets), so it runs two workers per core; the full run, with
    its long CPU-bound duels and timers, one per core. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still
    decides when it is set."""
    chosen = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if chosen:
        return int(chosen)
    cores = len(os.sched_getaffinity(0))
    return cores if config.getoption(RUN_SLOW) else 2 * cores


def _named_files(config: pytest.Config) -> set[Path]:
    """The test files named on the command line (folders are not: they select by default)."""
    here = config.invocation_params.dir
    named = {(here / arg.split("::")[0]).resolve() for arg in config.args}
    return {path for path in named if path.is_file()}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption(RUN_SLOW) or config.getoption("markexpr"):
        return
    named = _named_files(config)
    left_out = [i for i in items if i.get_closest_marker("slow") and i.path not in named]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        dropped = set(left_out)
        items[:] = [i for i in items if i not in dropped]
