"""Helpers for the torneo tests: a torneo made from a few lines, random results, the docs."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from fichaflow.torneo import model

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXAMPLES = DOCS / "examples" / "torneos"
TORNEOS_PAGE = DOCS / "torneos.md"
AT = "2026-12-05T10:00:00-04:00"


def make(count: int, **settings: Any) -> model.Torneo:
    """A torneo of ``count`` pairs (or players, for the individual format) named P1, P2…"""
    spec: dict[str, Any] = {"name": "Prueba", "rules": "venezuela", "rounds": 5}
    spec |= settings
    spec["entrants"] = [f"P{i}" for i in range(1, count + 1)]
    return model.create(spec)


def random_score(rng: random.Random, target: int = 100) -> tuple[int, int]:
    """A finished partida to ``target``: the winner reached it, the loser did not."""
    winner, loser = target + rng.randrange(0, 40), rng.randrange(0, target)
    return (winner, loser) if rng.random() < 0.5 else (loser, winner)


def play_round(torneo: model.Torneo, rng: random.Random, seed: str | None = None) -> model.Round:
    """Pair the next round and enter a random result at every table."""
    made = torneo.next_round(seed)
    for table in made.tables:
        score = random_score(rng, torneo.settings.rules.target)
        torneo.enter(made.number, table.number, model.Result(score=score), "test", AT)
    return made


def doc_table(marker: str) -> list[list[str]]:
    """The rows of the markdown table between ``<!-- marker -->`` and ``<!-- /marker -->`` in
    docs/torneos.md (header and rule lines left out)."""
    page = TORNEOS_PAGE.read_text(encoding="utf-8")
    found = re.search(rf"<!-- {marker} -->(.*?)<!-- /{marker} -->", page, re.S)
    assert found, marker
    rows = [line for line in found[1].strip().splitlines() if line.startswith("|")]
    cells = [[c.strip() for c in row.strip("|").split("|")] for row in rows[2:]]
    return [[c.replace("**", "").replace("−", "-") for c in row] for row in cells]
