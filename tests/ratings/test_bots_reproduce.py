"""The bots' shipped ratings come from the committed plan, and from nothing but the games the
shipped file keeps: refitting those games gives the shipped ratings exactly, and replaying a duel
of the plan gives those very games (each deal's partidas, seating by seating, won by whom).

The plan's entries without gallo are replayed (a couple of minutes: slow); gallo's take about a
quarter of an hour on one core and are replayed by ``python bench/rate_bots.py --no-cache``."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from fichaflow.core.rules import Mode
from fichaflow.ratings.bots import bot_ratings
from fichaflow.ratings.calibrate import ratings_of

ROOT = Path(__file__).resolve().parents[2]


def shipped() -> dict[str, Any]:
    text = resources.files("fichaflow.ratings").joinpath("bots.json").read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def plan() -> list[dict[str, Any]]:
    duels: list[dict[str, Any]] = json.loads(
        (ROOT / "bench" / "rate_bots_plan.json").read_text("utf-8")
    )["duels"]
    return duels


def refit(games: list[dict[str, Any]], document: dict[str, Any], resamples: int) -> dict[str, Any]:
    pinned = document["pinned"]
    return ratings_of(games, pinned["bot"], pinned["rating"], resamples)


def points(modes: dict[str, Any]) -> dict[str, dict[str, int]]:
    return {mode: {b: e["rating"] for b, e in table.items()} for mode, table in modes.items()}


def test_the_shipped_file_keeps_every_duel_of_its_plan_deal_by_deal() -> None:
    document = shipped()
    assert document["plan"] == "bench/rate_bots_plan.json"
    entries = plan()
    assert len(document["games"]) == len(entries)
    for entry, games in zip(entries, document["games"], strict=True):
        pairs = entry.get("pairs") or list(combinations(entry["bots"], 2))
        assert set(games) == {f"{m}:{a}:{b}" for m in entry["modes"] for a, b in pairs}
        for groups in games.values():
            assert sum(len(g) for g in groups) == entry["partidas"]  # no tied partida


def test_refitting_the_shipped_games_gives_the_ratings_the_product_shows() -> None:
    """The ratings (the intervals aside: their bootstrap takes a while, checked below)."""
    document = shipped()
    refitted = points(refit(document["games"], document, resamples=0))
    assert refitted == points(document["modes"])
    assert refitted == {str(mode): bot_ratings(mode) for mode in Mode}


def test_one_partida_won_by_the_other_bot_changes_the_fit() -> None:
    """The check above can fail: gallo losing one of the de a tres partidas it won moves it."""
    document = shipped()
    games = [
        {d: g for d, g in entry.items() if d.startswith("tres:")} for entry in document["games"]
    ]
    assert points(refit(games, document, 0)) == {"tres": points(document["modes"])["tres"]}
    groups = games[1]["tres:gallo:jugador"]
    i, j = next((i, j) for i, g in enumerate(groups) for j, game in enumerate(g) if game[-1] == "A")
    assert groups[i][j].startswith(("A|", "B|")) and groups[i][j][-2:] == ">A"
    groups[i][j] = groups[i][j][:-1] + "B"
    changed = points(refit(games, document, 0))["tres"]
    assert changed["gallo"] < document["modes"]["tres"]["gallo"]["rating"]


@pytest.mark.slow
def test_refitting_the_shipped_games_gives_the_shipped_intervals_too() -> None:
    document = shipped()
    assert refit(document["games"], document, document["resamples"]) == document["modes"]


@pytest.mark.slow
def test_the_plans_quick_duels_replay_to_the_shipped_games() -> None:
    games = shipped()["games"]
    replayed = 0
    for index, entry in enumerate(plan()):
        if "gallo" in json.dumps(entry):
            continue
        done = subprocess.run(
            [sys.executable, "bench/rate_bots.py", "--only", str(index)],
            cwd=ROOT, capture_output=True, text=True, timeout=900, check=True,
        )  # fmt: skip
        assert json.loads(done.stdout.strip().splitlines()[-1]) == games[index]
        replayed += 1
    assert replayed >= 1
