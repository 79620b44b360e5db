"""The bots' shipped ratings come from the committed plan: replaying a duel of the plan gives
the very partidas the shipped file was fitted from (its tally, won by whom, duel by duel).

The plan's entries without gallo are replayed (a couple of minutes: slow); gallo's take about a
quarter of an hour on two cores and are replayed by ``python bench/rate_bots.py --no-cache``."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def shipped() -> dict[str, object]:
    text = resources.files("fichaflow.ratings").joinpath("bots.json").read_text("utf-8")
    loaded: dict[str, object] = json.loads(text)
    return loaded


def test_the_shipped_file_names_its_plan_and_every_entry_of_it() -> None:
    plan = json.loads((ROOT / "bench" / "rate_bots_plan.json").read_text("utf-8"))["duels"]
    ratings = shipped()
    assert ratings["plan"] == "bench/rate_bots_plan.json"
    assert isinstance(ratings["tallies"], list) and len(ratings["tallies"]) == len(plan)


@pytest.mark.slow
def test_the_plans_quick_duels_replay_to_the_shipped_tallies() -> None:
    plan = json.loads((ROOT / "bench" / "rate_bots_plan.json").read_text("utf-8"))["duels"]
    tallies = shipped()["tallies"]
    assert isinstance(tallies, list)
    replayed = 0
    for index, entry in enumerate(plan):
        if "gallo" in json.dumps(entry):
            continue
        done = subprocess.run(
            [sys.executable, "bench/rate_bots.py", "--only", str(index), "--workers", "2"],
            cwd=ROOT, capture_output=True, text=True, timeout=900, check=True,
        )  # fmt: skip
        assert json.loads(done.stdout.strip().splitlines()[-1]) == tallies[index]
        replayed += 1
    assert replayed >= 1
