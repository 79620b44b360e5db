"""The one catalogue per language: Spanish and English say the same things with the same blanks,
the texts fill their blanks, and the pages get the very files the server speaks from."""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fichaflow import i18n


def test_spanish_and_english_have_the_same_keys_and_the_same_placeholders() -> None:
    es, en = i18n.catalogue("es"), i18n.catalogue("en")
    assert es.keys() == en.keys(), sorted(es.keys() ^ en.keys())
    differ = [k for k in es if i18n.placeholders(es[k]) != i18n.placeholders(en[k])]
    assert differ == []
    assert all(text.strip() for text in [*es.values(), *en.values()])


def test_a_text_fills_its_placeholders_and_keeps_the_unknown_ones() -> None:
    assert i18n.text("turn_clock.seconds", "es", seconds=30) == "30 segundos"
    assert i18n.text("turn_clock.seconds", "en", seconds=30) == "30 seconds"
    assert i18n.text("turn_clock.seconds", "en") == "{seconds} seconds"
    assert i18n.text("turn_clock.seconds", "fr", seconds=5) == "5 segundos"  # Spanish first
    with pytest.raises(KeyError):
        i18n.text("no.such.key")


def test_the_catalogues_ship_inside_the_package() -> None:
    for lang in i18n.LANGUAGES:
        shipped = resources.files("fichaflow.i18n").joinpath(f"{lang}.json").read_bytes()
        assert json.loads(shipped) == i18n.catalogue(lang)


def test_the_pages_fetch_the_same_catalogue_the_server_speaks(tmp_path: Path) -> None:
    from fichaflow.app import create_app
    from fichaflow.server.settings import Settings

    # No lifespan (no ``with``): serving the words needs neither the database nor the bots.
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'words.sqlite3'}"))
    client = TestClient(app)
    for lang in i18n.LANGUAGES:
        answer = client.get(f"/i18n/{lang}.json")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("application/json")
        assert answer.json() == i18n.catalogue(lang)
    assert client.get("/i18n/fr.json").status_code == 404


def test_every_key_the_anotador_and_the_repaso_ask_for_is_in_the_catalogue() -> None:
    """The pages name their words without their prefix (``t("save")`` is ``anotador.save``):
    the names written in their scripts and pages are all in the catalogue."""
    web = resources.files("fichaflow") / "web"
    for page, call in (
        ("anotador", r"\bt\(\s*\"([a-z_]+)\""),
        ("repaso", r"\bt\([\w.]+,\s*'([a-z_]+)'"),
        ("cuenta", r"\bt\(\s*'([a-z_]+)'"),
        ("jugadores", r"\bt\(\s*'([a-z_]+)'"),
    ):
        folder = web / page
        scripts = "\n".join(f.read_text() for f in folder.iterdir() if f.name.endswith(".js"))
        markup = (folder / "index.html").read_text()
        asked = set(re.findall(call, scripts)) | set(
            re.findall(r'data-t(?:-label)?="([a-z_]+)"', markup)
        )
        assert len(asked) > 15, page
        missing = sorted(k for k in asked if not i18n.has(f"{page}.{k}"))
        assert missing == [], page


def test_the_catalogue_module_is_the_bottom_layer() -> None:
    """The pure core reads its words from here, so this module may import nothing of FichaFlow's."""
    import ast

    tree = ast.parse(Path(i18n.__file__).read_text(encoding="utf-8"))
    imported = [
        name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for name in (
            [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        )
    ]
    assert imported and not [n for n in imported if n.startswith("fichaflow")]
