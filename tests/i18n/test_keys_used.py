"""Every word the Python code asks the catalogue for is there, as far as the source shows it.

The code asks in two ways: ``i18n.text("some.key", ...)`` directly, or through a small helper
that adds its owner's prefix (``def t(key, **params): return i18n.text(f"explain.{key}", ...)``),
called directly, through ``functools.partial`` or after an import. The keys written out in the
source (constants, either branch of a conditional, a variable given only constants) are read
from the syntax tree; the few built at run time (error codes, facts, bonuses, ends) are checked
apart, from the values they can take.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from fichaflow import i18n
from fichaflow.core.hand import End
from fichaflow.core.rules import BONUSES, Mode
from fichaflow.problemas import KINDS
from fichaflow.problemas.seat import DECIDED

PACKAGE = Path(i18n.__file__).resolve().parents[1]
ERRORS = {"FichaFlowError", "IllegalMove", "RulesError", "RecordError"}


@dataclass(frozen=True)
class Helper:
    prefix: str
    position: int  # which positional argument is the key


def _modules() -> dict[str, ast.Module]:
    return {
        ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts): ast.parse(
            path.read_text(encoding="utf-8")
        )
        for path in PACKAGE.rglob("*.py")
    }


def _is_text_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "text"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "i18n"
    )


def _helper(func: ast.FunctionDef) -> Helper | None:
    """A function whose one statement (after its docstring) is
    ``return i18n.text(f"prefix{key}", ...)``."""
    body = func.body[1:] if ast.get_docstring(func) is not None else func.body
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return None
    call = body[0].value
    if call is None or not (_is_text_call(call) and isinstance(call, ast.Call) and call.args):
        return None
    key = call.args[0]
    if not (isinstance(key, ast.JoinedStr) and len(key.values) == 2):
        return None
    prefix, part = key.values
    if not (
        isinstance(prefix, ast.Constant)
        and isinstance(part, ast.FormattedValue)
        and isinstance(part.value, ast.Name)
    ):
        return None
    names = [a.arg for a in func.args.args]
    return Helper(str(prefix.value), names.index(part.value.id))


def _constants(node: ast.AST, scope: ast.AST) -> set[str] | None:
    """The strings ``node`` can be, or None when they are made at run time."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        body, orelse = _constants(node.body, scope), _constants(node.orelse, scope)
        return None if body is None or orelse is None else body | orelse
    if isinstance(node, ast.Name):
        found: set[str] = set()
        for assign in ast.walk(scope):
            if isinstance(assign, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == node.id for t in assign.targets
            ):
                values = _constants(assign.value, scope)
                if values is None:
                    return None
                found |= values
        return found or None
    return None


def _calls(tree: ast.Module) -> list[tuple[ast.AST, ast.Call]]:
    """Every call in ``tree`` with the function (or module) it is written in."""
    found: list[tuple[ast.AST, ast.Call]] = []

    def visit(node: ast.AST, scope: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call):
                found.append((scope, child))
            inner = child if isinstance(child, ast.FunctionDef | ast.Lambda) else scope
            visit(child, inner)

    visit(tree, tree)
    return found


def keys_asked() -> tuple[set[str], set[str]]:
    """The keys the code asks for, and the calls whose key is built at run time."""
    modules = _modules()
    helpers: dict[tuple[str, str], Helper] = {}
    for name, tree in modules.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and (found := _helper(node)):
                helpers[(name, node.name)] = found
    helper_bodies = {
        node
        for tree in modules.values()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and _helper(node)
    }
    asked: set[str] = set()
    dynamic: set[str] = set()
    for name, tree in modules.items():
        local = {n: h for (m, n), h in helpers.items() if m == name}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    if (node.module, alias.name) in helpers:
                        local[alias.asname or alias.name] = helpers[(node.module, alias.name)]
        for node in ast.walk(tree):  # t = partial(helper, lang): the key moves one place left
            if (
                isinstance(node, ast.Assign)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Name)
                and node.value.func.id == "partial"
                and isinstance(node.value.args[0], ast.Name)
                and node.value.args[0].id in local
            ):
                inner = local[node.value.args[0].id]
                for target in node.targets:
                    assert isinstance(target, ast.Name)
                    given = len(node.value.args) - 1
                    local[target.id] = Helper(inner.prefix, inner.position - given)
        for scope, node in _calls(tree):
            if _is_text_call(node) and node.args:
                if scope in helper_bodies:
                    continue  # the helper itself: its key is the callers'
                prefix, arg = "", node.args[0]
            elif isinstance(node.func, ast.Name) and node.func.id in local:
                helper = local[node.func.id]
                if len(node.args) <= helper.position:
                    continue
                prefix, arg = helper.prefix, node.args[helper.position]
            else:
                continue
            values = None if isinstance(arg, ast.JoinedStr) else _constants(arg, scope)
            if values is None:
                dynamic.add(f"{name}:{node.lineno}")
            else:
                asked |= {prefix + v for v in values}
    return asked, dynamic


def error_codes() -> set[str]:
    """The codes the package raises errors with, where it writes them out."""
    codes: set[str] = set()
    errors = [k for k in i18n.catalogue("es") if k.startswith("error.") and k.count(".") == 2]
    namespaces = {k.split(".")[1] for k in errors}
    pattern = re.compile(rf"^({'|'.join(sorted(namespaces))})\.[a-z_]+$")
    for tree in _modules().values():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
                if called in ERRORS and node.args:
                    codes |= _constants(node.args[0], tree) or set()
            # Codes handed to an error through a variable or a helper: any literal shaped
            # like a code of a namespace the catalogue has for errors.
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and pattern.match(node.value)
                and not i18n.has(node.value)  # a word of the game's own (rules.preset)
            ):
                codes.add(node.value)
    return codes


def test_every_key_the_code_asks_for_is_in_the_catalogue() -> None:
    asked, _ = keys_asked()
    assert len(asked) > 150  # the search works: it finds the helpers' keys, not just a few
    assert sorted(k for k in asked if not i18n.has(k)) == []


def test_every_error_the_code_raises_has_its_words() -> None:
    codes = error_codes()
    assert len(codes) > 150
    assert sorted(c for c in codes if not i18n.has(f"error.{c}")) == []


def test_the_keys_made_at_run_time_exist() -> None:
    from fichaflow.review import facts

    source = Path(facts.__file__).read_text(encoding="utf-8")
    fact_codes = set(re.findall(r'Fact\(\s*"([a-z_]+)"', source))
    fact_codes |= {"covers_partner", "covers_rival"}  # Fact(f"covers_{side}")
    assert {"domino", "dead_double", "next_blocked"} <= fact_codes
    made = {f"fact.{code}" for code in fact_codes}
    made |= {f"fact.at_{end.word}" for end in End}
    made |= {f"fact.why_{why}" for why in ("lead", "placed", "placed_announced")}
    made |= {f"explain.{kind}" for kind in BONUSES}
    made |= {f"cli.analyze.{end.word}" for end in End}
    made |= {f"number.{n}" for n in range(7)}  # a tile's spoken name
    made |= {f"cli.duel.{kind}{part}" for kind in ("hands", "partidas") for part in ("", "_word")}
    made |= {f"trainer.position.{who}" for who in ("partner", "rival")}  # trainer.shipped
    made |= {f"trainer.position.{who}_hidden" for who in ("partner", "rival")}
    made |= {f"trainer.position.{kind}" for kind in KINDS}
    made |= {f"problemas.explain.{v}_seat.{how}" for v in ("right", "wrong") for how in DECIDED}
    made |= {f"value.mode.{mode.value}" for mode in Mode}
    assert sorted(k for k in made if not i18n.has(k)) == []


def test_only_the_known_keys_are_built_at_run_time() -> None:
    """A new key built at run time must be added to the test above, so the count is pinned."""
    _, dynamic = keys_asked()
    # 12: fichaflow.trainer.router words a puzzle's explanation by the key its Verdict names
    assert len(dynamic) == 16, sorted(dynamic)
