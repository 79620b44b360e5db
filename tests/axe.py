"""axe-core in the browser tests: run the accessibility checks of axe-core 4.14.1 (vendored in
``tests/vendor/axe-core``, MPL-2.0) over the page as it stands, and fail on any critical or
serious violation, naming each rule and the nodes it found.

The script is handed to the page through Playwright's ``evaluate`` (the DevTools protocol), which
the pages' Content-Security-Policy does not govern: the pages keep their policy while they are
checked, and axe-core itself needs no eval."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any, Final

AXE_VERSION: Final = "4.14.1"
AXE_SCRIPT: Final = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
FAILING: Final = frozenset({"critical", "serious"})

RUN = """async () => {
  const result = await axe.run(document, { resultTypes: ['violations'] });
  return { version: axe.version, violations: result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(' '), html: n.html.slice(0, 160),
                                 summary: n.failureSummary })),
  })) };
}"""


@cache
def _source() -> str:
    return AXE_SCRIPT.read_text(encoding="utf-8")


def violations(page: Any) -> list[dict[str, Any]]:
    """Every violation axe-core finds on the page now, of any impact."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(_source())
    found = page.evaluate(RUN)
    assert found["version"] == AXE_VERSION, found["version"]
    return list(found["violations"])


def describe(found: list[dict[str, Any]]) -> str:
    lines = []
    for violation in found:
        lines.append(f"{violation['impact']} {violation['id']}: {violation['help']}")
        lines.extend(
            f"    {node['target']}  {node['html']}\n      {node['summary']}"
            for node in violation["nodes"]
        )
    return "\n".join(lines)


def assert_accessible(page: Any, screen: str, *, also: frozenset[str] = frozenset()) -> None:
    """Fail when axe-core finds a critical or serious violation on ``screen`` (or one of the
    moderate rules named in ``also``), printing each rule id and its nodes."""
    found = violations(page)
    bad = [v for v in found if v["impact"] in FAILING or v["id"] in also]
    assert not bad, f"axe-core on {screen}:\n{describe(bad)}"
