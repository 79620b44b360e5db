"""Every word FichaFlow says, in one catalogue per language: ``es.json`` (first) and ``en.json``.

The command line, the server and the three web pages read the same two files, so a thing has one
name everywhere. Keys are flat and dotted, namespaced by who says them (``error.<code>``,
``anotador.<key>``, ``repaso.<key>``...); texts fill ``{name}`` placeholders from keyword
arguments. This module is the bottom layer: it imports nothing from the rest of FichaFlow, so
the pure core may use it too.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Final

LANGUAGES: Final[tuple[str, ...]] = ("es", "en")
"""The languages with a catalogue; Spanish first, and the fallback for anything else."""


@cache
def source(lang: str) -> bytes:
    """The catalogue file's bytes as shipped, for serving it to the pages unchanged."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    return resources.files(__name__).joinpath(f"{lang}.json").read_bytes()


@cache
def catalogue(lang: str) -> dict[str, str]:
    """The whole catalogue of ``lang`` (an unknown language reads the Spanish one), loaded once."""
    loaded: dict[str, str] = json.loads(source(lang if lang in LANGUAGES else "es"))
    return loaded


def has(key: str) -> bool:
    """Whether the catalogue has ``key`` (both languages hold the same keys; a test checks)."""
    return key in catalogue("es")


def text(key: str, lang: str = "es", /, **params: object) -> str:
    """The text for ``key`` in ``lang`` with its ``{placeholders}`` filled from ``params``.

    A key that does not exist is a programming error, so it raises ``KeyError`` rather than
    showing the key to a player; placeholders without a value stay as they are.
    """
    template = catalogue(lang)[key]
    if not params:
        return template
    return _PLACEHOLDER.sub(lambda m: str(params.get(m[1], m[0])), template)


def placeholders(template: str) -> set[str]:
    """The names of a text's ``{placeholders}``."""
    return set(_PLACEHOLDER.findall(template))


_PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")
"""A placeholder as the pages' ``t()`` reads it too: a name in braces, nothing more."""
