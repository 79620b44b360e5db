"""``fichaflow duel`` as a user runs it: a Spanish report, one JSON object, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

FICHAFLOW = [sys.executable, "-c", "from fichaflow.cli import main; main()"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*FICHAFLOW, *args], capture_output=True, text=True, timeout=300, check=False
    )


def test_duel_prints_a_spanish_report() -> None:
    out = run("duel", "jugador", "tirapuntos", "--hands", "40", "--partidas", "4", "--seed", "1")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Duelo duplicado: jugador contra tirapuntos" in text
    assert "Manos: 40 jugadas (20 repartos)" in text
    assert "Manos ganadas: jugador" in text and "IC 95 %" in text
    assert "Partidas: 4 jugadas" in text
    assert "Tiempo por decisión:" in text and "percentil 99" in text


def test_duel_json_is_one_object_with_intervals() -> None:
    out = run("duel", "acuestafichas", "tirafichas", "--rules", "tres", "--hands", "12", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["bots"] == ["acuestafichas", "tirafichas"]
    assert data["rules"] == {"preset": "tres"}
    hands = data["hands"]
    assert hands["played"] == 12 and hands["groups"] == 2  # six seatings per deal in tres
    assert sum(hands["won"]) + hands["undecided"] == 12
    assert hands["share"]["low"] <= hands["share"]["estimate"] <= hands["share"]["high"]
    assert data["partidas"] is None
    assert [t["decisions"] > 0 for t in data["decision_time"]] == [True, True]


def test_the_same_seed_gives_the_same_duel() -> None:
    args = ("duel", "jugador", "acuestafichas", "--hands", "30", "--seed", "9", "--json")
    first, second = json.loads(run(*args).stdout), json.loads(run(*args).stdout)
    first.pop("decision_time"), second.pop("decision_time")
    assert first == second


@pytest.mark.parametrize(
    ("args", "word"),
    [
        (("duel", "jugador", "campeon"), "campeon"),
        (("duel", "jugador", "tirapuntos", "--rules", "cubana"), "cubana"),
        (("duel", "jugador", "tirapuntos", "--set", "target=5"), "target"),
    ],
)
def test_unknown_bot_or_preset_is_one_spanish_line_and_status_2(
    args: tuple[str, ...], word: str
) -> None:
    out = run(*args)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and word in lines[0]
    assert "Traceback" not in out.stderr
