"""What the terminal table says, in Spanish (first) and English.

The words are the catalogue's ``tui.*`` keys (:mod:`fichaflow.i18n`); errors are its ``error.*``
keys, so that every interface words them alike. This is the table talk: headings, events,
prompts and help.
"""

from __future__ import annotations

from fichaflow import i18n


def say(lang: str, key: str, **params: object) -> str:
    """The text ``tui.<key>`` in ``lang`` (Spanish when the language is missing)."""
    return i18n.text(f"tui.{key}", lang, **params)
