"""The bots' fixed ratings, measured once by ``bench/rate_bots.py`` and shipped in ``bots.json``.

A bot is rated on the people's scale so that a player can read «jugador ≈ 1400» and know what
beating it means. Its rating does not move when people beat it: it was measured in duplicate
duels among the bots (every deal played in every seating, so the deal's luck cancels), fitted by
the same Plackett–Luce model that rates people, with ``tirafichas`` (who throws the first tile
that fits) fixed at 1000. ``docs/benchmarks.md`` has the command, the counts and the intervals.
A bot the file does not list for a mode has not been measured there: it has no rating.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from fichaflow.core.rules import Mode
from fichaflow.ratings.model import BOT_SIGMA, Rating, mu_of


@cache
def _measured() -> dict[str, Any]:
    text = resources.files("fichaflow.ratings").joinpath("bots.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def bot_rating(name: str, mode: Mode) -> Rating | None:
    """The bot's fixed rating at ``mode``, or None where it was not measured."""
    entry = _measured()["modes"].get(str(mode), {}).get(name)
    if entry is None:
        return None
    return Rating(mu_of(entry["rating"]), BOT_SIGMA, entry["partidas"])


def bot_ratings(mode: Mode) -> dict[str, int]:
    """Every measured bot's shown rating at ``mode``, weakest first."""
    table = _measured()["modes"].get(str(mode), {})
    return dict(sorted(((n, e["rating"]) for n, e in table.items()), key=lambda item: item[1]))
