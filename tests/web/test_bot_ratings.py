"""The waiting room says how strong each bot is, on the people's scale, for the mesa's mode:
«gallo · el más fuerte de la mesa · ≈ 1275 puntos» at a parejas mesa, its mano a mano figure
at a mano a mano one (docs/ratings.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from fichaflow.core.rules import Mode
from fichaflow.ratings.bots import bot_ratings
from tests.server.kit import ServerProcess
from tests.web.driver import create_mesa


@pytest.mark.parametrize(
    ("preset", "mode"),
    [
        ("venezuela", Mode.PAREJAS),
        pytest.param("mano_a_mano", Mode.MANO_A_MANO, marks=pytest.mark.slow),
    ],
)
def test_each_bot_offered_shows_its_rating_for_the_mesas_mode(
    web_server: ServerProcess, new_page: Callable[..., Any], preset: str, mode: Mode
) -> None:
    page = new_page()
    create_mesa(page, web_server.url, "Ana", preset, 100, {})
    options = page.locator("#bot-for-1 option")
    labels = dict(zip(options.evaluate_all("os => os.map(o => o.value)"),
                      options.all_inner_texts(), strict=True))  # fmt: skip
    expected = bot_ratings(mode)
    assert set(labels) == set(expected)  # every bot offered was measured in every mode
    for bot, label in labels.items():
        assert label.startswith(bot) and label.endswith(f"≈ {expected[bot]} puntos"), label
    assert page.js_errors == []
