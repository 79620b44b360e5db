"""The example session in docs/engine-protocol.md is a real run: the engine, given the doc's
requests, answers exactly the doc's lines (an outside client built from the doc sees the same)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine-protocol.md"


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def test_the_docs_example_session_is_what_the_engine_answers() -> None:
    text = DOC.read_text(encoding="utf-8")
    command = next(b for b in blocks(text, "console") if "fichaflow engine" in b)
    args = command.split("fichaflow", 1)[1].split("<")[0].split()
    requests, answers = blocks(text, "json")[:2]
    done = subprocess.run(
        [sys.executable, "-c", "from fichaflow.cli import main; main()", *args],
        input=requests,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    got = [json.loads(line) for line in done.stdout.splitlines()]
    assert got == [json.loads(line) for line in answers.splitlines()]
