"""``fichaflow analyze`` as a real process: Spanish first, one JSON object with --json, and one
Spanish line with status 2 for bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.review.records import LAST_TILES


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "fichaflow", *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture()
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "partida.json"
    path.write_text(json.dumps(LAST_TILES), encoding="utf-8")
    return path


def test_the_review_reads_in_spanish(record_file: Path) -> None:
    done = run("analyze", str(record_file), "--seat", "1", "--precision", "fast")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Repaso · mano 1 · Beto (asiento 1) · mano_a_mano · precisión fast\n")
    assert "Beto recibió: 1-0 2-2 4-4 5-4 6-2 6-3 6-4" in out
    # The last decision: everything is in sight, the 3-1 wins 24 and the 6-4 played gives 3.
    last = out[out.rindex("Jugada 24") :]
    assert (
        "Jugaste 6-4: con esa jugada se esperaban 21 tantos menos que con 3-1 (la mejor)." in last
    )
    assert "3-1 izquierda" in last and "la mejor" in last
    assert "Resumen:" in out and re.search(
        r"las tuyas dejaron de ganar [\d.]+ tantos en promedio", out
    )
    assert done.stderr == ""


def test_the_review_in_english(record_file: Path) -> None:
    done = run("--lang", "en", "analyze", str(record_file), "--seat", "1", "--precision", "fast")
    assert done.returncode == 0, done.stderr
    assert (
        "You played 6-4: it was expected to make 21 points less than 3-1 (the best)." in done.stdout
    )


def test_json_is_one_object_with_every_decision(record_file: Path) -> None:
    done = run("analyze", str(record_file), "--seat", "1", "--hand", "1", "--precision", "fast",
               "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["seat"] == 1 and data["precision"] == "fast"
    assert data["players"] == ["Ana", "Beto"]
    (hand,) = data["hands"]
    assert hand["hand"] == 1 and hand["seat"] == 1
    last = hand["decisions"][-1]
    assert last["played"] == "6-4:right" and last["verdict"] == "mistake"
    assert last["cost"] == pytest.approx(21)
    assert [m["move"] for m in last["moves"]] == ["3-1:left", "6-4:right"]
    best = last["moves"][0]
    assert best["verdict"] == "best" and best["points"] == pytest.approx(24)
    assert best["hindsight"] == pytest.approx(24) and best["win"] == pytest.approx(1)
    assert set(best) >= {"points_se", "win_se", "cost_se", "facts", "tile", "end"}
    assert hand["summary"]["decisions"] == len(hand["decisions"])
    assert hand["summary"]["mistakes"] >= 1 and hand["summary"]["points_lost"] >= 21


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--seat", "2"], "Error: El asiento debe ser de 0 a 1 (no 2)"),
        (["--seat", "1", "--hand", "3"], "Error: No hay mano 3: el registro tiene 1 manos "
         "terminadas"),
        (["--seat", "1", "--hand", "0"], "Error: No hay mano 0: el registro tiene 1 manos "
         "terminadas"),
        (["--seat", "1", "--precision", "mucha"], "Error de uso: Valor no válido para "
         "'--precision'"),
        (["--seat", "uno"], "Error de uso: Valor no válido para '--seat'"),
        ([], "Error de uso: Falta la opción '--seat'"),
    ],
)  # fmt: skip
def test_bad_options_get_one_spanish_line(record_file: Path, args: list[str], message: str) -> None:
    done = run("analyze", str(record_file), *args)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith(message) and done.stderr.count("\n") == 1


def test_bad_records_get_one_spanish_line(tmp_path: Path) -> None:
    missing = run("analyze", str(tmp_path / "nada.json"), "--seat", "0")
    assert missing.returncode == 2 and missing.stderr.startswith("Error: ")
    assert "nada.json" in missing.stderr and missing.stderr.count("\n") == 1
    broken = tmp_path / "roto.json"
    broken.write_text('{"rules": "venezuela", "hands": [', encoding="utf-8")
    done = run("analyze", str(broken), "--seat", "0")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "línea 1" in done.stderr
    empty = tmp_path / "vacio.json"
    empty.write_text('{"rules": "venezuela", "hands": []}', encoding="utf-8")
    done = run("analyze", str(empty), "--seat", "0")
    assert done.returncode == 2
    assert done.stderr == "Error: El registro no tiene ninguna mano terminada que repasar\n"
