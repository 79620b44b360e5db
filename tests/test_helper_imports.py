"""Test helpers are imported one way: ``from tests.<folder>.<module> import …``.

Every test folder is a package (so that import works from anywhere and two folders may hold
modules of the same name), and no test imports a helper by its folder's bare name
(``from core.kit import …`` only worked because pytest happened to put ``tests/`` on the path).
Relative imports are refused by ruff (``ban-relative-imports`` in pyproject.toml)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _test_folders() -> list[Path]:
    return sorted({path.parent for path in TESTS.rglob("*.py") if "__pycache__" not in path.parts})


def test_every_test_folder_is_a_package() -> None:
    missing = [
        str(folder.relative_to(TESTS.parent))
        for folder in _test_folders()
        if not (folder / "__init__.py").exists()
    ]
    assert missing == [], f"add an empty __init__.py to: {', '.join(missing)}"


def _bare_helper_imports(path: Path, helper_names: set[str]) -> list[str]:
    """The imports in ``path`` whose first name is a helper module or folder under tests/."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [
            f"{path.relative_to(TESTS.parent)}:{node.lineno}: {name}"
            for name in names
            if name.split(".")[0] in helper_names
        ]
    return found


def test_helpers_are_imported_from_tests() -> None:
    helper_names = {path.stem for path in TESTS.glob("*.py")} | {
        folder.name for folder in _test_folders() if folder != TESTS
    }
    helper_names -= {"__init__"}
    bare = [
        line
        for path in sorted(TESTS.rglob("*.py"))
        for line in _bare_helper_imports(path, helper_names)
    ]
    assert bare == [], "import test helpers as `from tests.<folder>.<module> import …`:\n" + (
        "\n".join(bare)
    )
