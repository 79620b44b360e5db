"""The layers hold: each package imports only from the ones below it, the services do not import
each other, and the pure packages use no web, database or terminal library.

The contracts are in pyproject.toml (``[tool.importlinter]``) and are checked here by
import-linter, the same check ``lint-imports`` runs; a new top-level package must be given its
layer there. The second test breaks each contract on purpose, on a copy of the import graph, so
that a contract that quietly checks nothing (a misspelt module, a layer list that lost a line)
fails too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import grimp
import pytest
from importlinter import api
from importlinter.application.use_cases import lint_imports
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract
from importlinter.domain.contract import Contract

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
CONTRACT_TYPES: dict[str, type[Contract]] = {
    "layers": LayersContract,
    "independence": IndependenceContract,
    "forbidden": ForbiddenContract,
}
BREAKING_IMPORTS = {
    "layers": ("fichaflow.core.tiles", "fichaflow.server.routes"),
    "services": ("fichaflow.review.router", "fichaflow.server.service"),
    "pure": ("fichaflow.core.rules", "sqlalchemy"),
}
"""For each contract, one import it must refuse: the core reaching up into the game server, the
Repaso reaching into the game's table service, the rules core reaching for the database."""


def _configuration() -> dict[str, Any]:
    return api.read_configuration(str(PYPROJECT))


def test_the_import_contracts_are_kept(capsys: pytest.CaptureFixture[str]) -> None:
    kept = lint_imports(str(PYPROJECT), cache_dir=None, no_logo=True)
    report = capsys.readouterr().out
    assert kept, f"an import breaks the layers (see docs/architecture.md):\n{report}"


@pytest.fixture(scope="module")
def import_graph() -> grimp.ImportGraph:
    session = _configuration()["session_options"]
    return grimp.build_graph(
        *session["root_packages"], include_external_packages=True, cache_dir=None
    )


@pytest.mark.parametrize("contract_id", sorted(BREAKING_IMPORTS))
def test_each_contract_refuses_the_import_it_is_there_to_refuse(
    contract_id: str, import_graph: grimp.ImportGraph
) -> None:
    configuration = _configuration()
    session = configuration["session_options"]
    options = next(c for c in configuration["contracts_options"] if c["id"] == contract_id)
    contract = CONTRACT_TYPES[options["type"]](options["name"], session, options)
    assert contract.check(import_graph, verbose=False).kept
    importer, imported = BREAKING_IMPORTS[contract_id]
    import_graph.add_import(importer=importer, imported=imported, line_number=1, line_contents="")
    try:
        assert not contract.check(import_graph, verbose=False).kept
    finally:
        import_graph.remove_import(importer=importer, imported=imported)
