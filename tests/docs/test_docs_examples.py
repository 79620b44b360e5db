"""The records and the seed algorithm that docs/records.md shows must stay true of the engine.

The example records are replayed by the real ``fichaflow`` command; the seed algorithm is checked
against the reference implementation written out in the page itself.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fichaflow.core import Deal, shuffle, sorteo
from fichaflow.core.tiles import name

DOCS = Path(__file__).resolve().parents[2] / "docs"
EXAMPLES = DOCS / "examples"
RECORDS_PAGE = (DOCS / "records.md").read_text(encoding="utf-8")

# The seed each example's deals were made from, as records.md says.
SEEDS = {
    "dominicana-tranque.json": ["ejemplo-3"],
    "mano-a-mano-monton.json": ["mano-1"],
    "tres-sorteo.json": ["tres-43"],
    "venezuela-partida.json": [f"venezuela-48-{i}" for i in range(7)],
}


def fichaflow(*args: str) -> subprocess.CompletedProcess[str]:
    code = "from fichaflow.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=False
    )


def replay_json(path: Path) -> dict[str, Any]:
    result = fichaflow("replay", "--json", str(path))
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_every_example_is_listed_and_replays() -> None:
    assert sorted(p.name for p in EXAMPLES.glob("*.json")) == sorted(SEEDS)
    for path in EXAMPLES.glob("*.json"):
        result = fichaflow("replay", str(path))
        assert result.returncode == 0, result.stderr
        assert result.stderr == ""


@pytest.mark.parametrize("example", sorted(SEEDS))
def test_example_deals_come_from_their_seeds(example: str) -> None:
    record = json.loads((EXAMPLES / example).read_text(encoding="utf-8"))
    for hand, seed in zip(record["hands"], SEEDS[example], strict=True):
        deal = Deal.from_seed(len(hand["deal"]), seed)
        assert [{name(t) for t in range(28) if h >> t & 1} for h in deal.hands] == [
            set(h) for h in hand["deal"]
        ]
        assert [name(t) for t in deal.stock] == hand.get("stock", [])


def test_parejas_example_is_the_tranque_con_el_de_abajo_of_the_walkthrough() -> None:
    hand = replay_json(EXAMPLES / "dominicana-tranque.json")["hands"][0]
    # seat 3 closes with 14 pips, the next seat (0) holds 9 and wins for its pair
    assert (hand["end"], hand["seat"], hand["rule"]) == ("tranque", 3, "abajo")
    assert hand["compared"] == [[3, 14], [0, 9]]
    assert hand["winner"] == 0
    assert hand["points"] == sum(hand["pips"]) == 9 + 16 + 13 + 14


def test_stock_example_leaves_its_three_draws_unwritten() -> None:
    record = json.loads((EXAMPLES / "mano-a-mano-monton.json").read_text(encoding="utf-8"))
    moves = record["hands"][0]["moves"]
    assert "draw" not in moves and len(moves) == 14
    hand = replay_json(EXAMPLES / "mano-a-mano-monton.json")["hands"][0]
    # seat 0 keeps 0-0, 3-0 and the drawn 3-3: 9 pips for seat 1
    assert hand["pips"] == [9, 0]
    assert (hand["winner"], hand["points"]) == (1, 9)


def test_sorteo_example_leader_is_the_winner_of_the_seeds_sorteo() -> None:
    record = json.loads((EXAMPLES / "tres-sorteo.json").read_text(encoding="utf-8"))
    winner, rounds = sorteo(3, "tres-43")
    assert record["hands"][0]["leader"] == winner == 2
    assert len(rounds) == 2


def test_partida_example_ends_in_chancleta() -> None:
    result = replay_json(EXAMPLES / "venezuela-partida.json")
    assert (result["over"], result["winner"], result["chancleta"]) == (True, 1, True)
    losing_hands = [h for h in result["hands"] if h["gains"][0] > 0]
    assert len(losing_hands) == 1
    assert result["scores"][1] >= 100


def test_documented_error_line_is_what_a_user_gets(tmp_path: Path) -> None:
    record = json.loads((EXAMPLES / "dominicana-tranque.json").read_text(encoding="utf-8"))
    record["hands"][0]["moves"][1] = "6-1"
    broken = tmp_path / "mano-sin-extremo.json"
    broken.write_text(json.dumps(record), encoding="utf-8")
    result = fichaflow("replay", str(broken))
    assert result.returncode == 2
    line = result.stderr.strip()
    assert line in RECORDS_PAGE
    assert line.startswith("Error: Mano 1, jugada 2:") and "Traceback" not in result.stderr


def _reference() -> dict[str, Any]:
    code = re.search(r"```python\n(.*?)```", RECORDS_PAGE, re.S)
    assert code is not None
    namespace: dict[str, Any] = {}
    exec(code.group(1), namespace)
    return namespace


REFERENCE = _reference()


@given(st.binary(max_size=24))
def test_reference_implementation_in_the_page_matches_the_engine(seed: bytes) -> None:
    assert REFERENCE["shuffle"](seed) == shuffle(seed)
    for seats in (2, 3, 4):
        assert REFERENCE["sorteo"](seats, seed) == sorteo(seats, seed)[0]


def test_test_vector_in_the_page_is_the_engines_order() -> None:
    order = " ".join(name(t) for t in shuffle("fichaflow")).split()
    written = re.search(r"that is `([0-9\- |]+)`", RECORDS_PAGE)
    assert written is not None
    assert written.group(1).replace("| ", "").split() == order
