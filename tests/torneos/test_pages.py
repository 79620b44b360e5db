"""The torneo's pages as files: every word they ask for is in the catalogue, and they hold no
inline script or style (the strict Content-Security-Policy of fichaflow.http.security would
refuse it; the browser tests run them under it)."""

from __future__ import annotations

import re
from importlib import resources

from fichaflow import i18n

FOLDER = resources.files("fichaflow") / "web" / "torneo"


def test_every_word_the_torneo_pages_ask_for_is_in_the_catalogue() -> None:
    scripts = "\n".join(f.read_text() for f in FOLDER.iterdir() if f.name.endswith(".js"))
    markup = "\n".join(f.read_text() for f in FOLDER.iterdir() if f.name.endswith(".html"))
    asked = set(re.findall(r"\bt\(\s*\"([a-z_]+)\"", scripts))
    asked |= set(re.findall(r'data-t="([a-z_]+)"', markup))
    assert len(asked) > 30
    missing = sorted(k for k in asked if not i18n.has(f"torneo.web.{k}"))
    assert missing == []
    figures = set(re.findall(r"\bfigure\(\s*\"([a-z_]+)\"", scripts))
    assert {"pg", "pf", "pc", "diff", "partners"} <= figures
    assert sorted(k for k in figures if not i18n.has(f"torneo.{k}")) == []


def test_the_pages_hold_no_inline_script_or_style() -> None:
    for page in (f for f in FOLDER.iterdir() if f.name.endswith(".html")):
        text = page.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), page.name
        assert "<style" not in text and " style=" not in text, page.name
        assert not re.search(r"\son[a-z]+=", text), page.name
