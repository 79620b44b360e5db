"""The Repaso's truth bench keeps its exact references in a file, so that variants of the
Repaso are judged against the same reference: the kept file must be what the next run reads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "repaso_truth.py"
SMALL = ["--hands", "1", "--deals", "20", "--modes", "venezuela", "--min-line", "9"]


def run(*args: str) -> list[str]:
    """The lines that judge one decision each."""
    done = subprocess.run(
        [sys.executable, str(BENCH), *SMALL, *args], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if line.startswith("venezuela ")]


@pytest.mark.slow
def test_references_are_kept_and_read_back_and_decisions_can_be_shared(tmp_path: Path) -> None:
    kept = tmp_path / "references.json"
    first = run("--per-mode", "2", "--references", str(kept))
    assert len(first) == 2
    references = json.loads(kept.read_text())
    assert len(references) == 2
    assert all(key.endswith(", 20 deals") for key in references)
    assert all(len(r["means"]) == len(r["gap_se"]) >= 2 for r in references.values())
    # Read back, not solved again: the same judgement...
    assert run("--per-mode", "2", "--references", str(kept)) == first
    # ...and a reference changed in the file changes the judgement: every move worth 100 tantos
    # more, the Repaso's values are about 100 from it.
    key = next(iter(references))
    references[key]["means"] = [m + 100 for m in references[key]["means"]]
    kept.write_text(json.dumps(references))
    (changed,) = run("--per-mode", "1", "--references", str(kept))
    difference = float(changed.split("mean |difference| ")[1].split(",")[0])
    assert difference > 90
    # The second decision alone, as a second process would take it.
    assert run("--skip", "1", "--per-mode", "1", "--references", str(kept)) == first[1:]


@pytest.mark.slow
def test_a_reference_judged_against_itself_agrees_and_against_another_seed_differs(
    tmp_path: Path,
) -> None:
    kept = str(tmp_path / "references.json")
    itself = run("--per-mode", "2", "--references", kept, "--against-seed", "0")
    assert len(itself) == 2
    assert all("same best (reference loses 0.0" in line for line in itself)
    assert all("mean |difference| 0.0," in line for line in itself)
    other = run("--per-mode", "2", "--references", kept, "--against-seed", "7")
    assert all("judged: the reference of 20 deals, seed 7" in line for line in other)
    assert any("mean |difference| 0.0," not in line for line in other)
    assert len(json.loads(Path(kept).read_text())) == 4  # two decisions, two seeds each
