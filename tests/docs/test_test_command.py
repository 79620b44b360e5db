"""CI runs the README's test command: the checks and the whole suite, slow tests included."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _checks(line: str) -> str:
    """The part of a command line from the first check on (the installation before differs)."""
    return line[line.index("ruff format") :].strip()


def test_ci_runs_the_readme_test_command_with_the_slow_tests() -> None:
    readme = [
        line
        for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
        if "python -m pytest" in line and "ruff format" in line
    ]
    ci = [
        line
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if "python -m pytest" in line and not line.lstrip().startswith("#")
    ]
    assert len(readme) == 1 and len(ci) == 1, (readme, ci)
    assert _checks(ci[0]) == _checks(readme[0])
    assert "--slow" in _checks(readme[0]).split()


def test_the_readme_says_which_python_the_package_needs() -> None:
    """A player on an older Python fails at install: the README says, before the first command,
    the version the package requires (pyproject's ``requires-python``)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    needed = project["project"]["requires-python"]
    assert needed.startswith(">="), needed
    version = needed.removeprefix(">=")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    before_commands = readme[: readme.index("```")]
    assert f"Python {version} o más nuevo" in before_commands
    assert f"Python {version} or newer" in before_commands


def test_the_readme_names_every_page_the_server_serves() -> None:
    """Each of the web client's pages (a folder with its own index.html: the anotador, the
    account, the players, the problemas, the Repaso, the torneos) is named in the README's
    feature list by its address, so a reader knows where to find it."""
    web = ROOT / "src" / "fichaflow" / "web"
    pages = sorted(p.parent.name for p in web.glob("*/index.html"))
    assert len(pages) >= 6, pages
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    features = readme[readme.index("## Qué hay") : readme.index("## Desarrollo")]
    assert [p for p in pages if f"`/{p}/`" not in features] == []
