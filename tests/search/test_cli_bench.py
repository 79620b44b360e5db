"""``fichaflow bench`` as a user runs it: a real process, Spanish by default, JSON on request."""

from __future__ import annotations

import json
import subprocess
import sys

MODES = {"parejas", "mano_a_mano", "tres"}


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    code = "from fichaflow.cli import main; main()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120
    )


def test_bench_json_is_one_object_with_both_engines_per_mode() -> None:
    done = _run("bench", "--json", "--seconds", "0.1")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["unit"] == "hands_per_second"
    assert set(data["modes"]) == MODES
    for figures in data["modes"].values():
        assert figures["search"] > 0 and figures["rules"] > 0
        assert abs(figures["ratio"] - figures["search"] / figures["rules"]) < 0.01


def test_bench_speaks_spanish_by_default_and_english_on_request() -> None:
    spanish = _run("bench", "--seconds", "0.1")
    assert spanish.returncode == 0
    assert "motor de búsqueda" in spanish.stdout and "motor de reglas" in spanish.stdout
    english = _run("--lang", "en", "bench", "--seconds", "0.1")
    assert "search engine" in english.stdout


def test_bench_refuses_a_bad_duration_in_one_spanish_line() -> None:
    done = _run("bench", "--seconds", "0")
    assert done.returncode == 2
    assert "--seconds" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
