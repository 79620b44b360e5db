"""Every picture in docs/screenshots is taken by a browser test that the README's refresh command
runs, so refreshing them is that one command, and no picture is left behind as the pages change."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"


def refresh_command() -> list[str]:
    """The README's command line that writes the screenshots to the docs."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = [line for line in readme.splitlines() if "--update-screenshots" in line]
    assert len(lines) == 1, lines
    command = re.search(r"`([^`]*--update-screenshots[^`]*)`", lines[0])
    assert command, lines[0]
    return shlex.split(command[1])


def test_the_refresh_command_takes_every_screenshot_of_the_docs() -> None:
    words = refresh_command()
    assert words[:3] == ["python", "-m", "pytest"] and "--slow" in words
    files: list[Path] = []
    for word in words[3:]:
        if word.startswith("-"):
            continue
        path = ROOT / word
        assert path.exists(), word
        files += sorted(path.rglob("test_*.py")) if path.is_dir() else [path]
    sources = "\n".join(f.read_text(encoding="utf-8") for f in files)
    pictures = sorted(p.name for p in SHOTS.glob("*.png"))
    assert pictures
    untaken = [name for name in pictures if f'"{name}"' not in sources]
    assert untaken == [], f"no test the README's refresh command runs takes {untaken}"
