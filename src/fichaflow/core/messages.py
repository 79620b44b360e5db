"""The text of every error, in Spanish (first) and English.

The words live in FichaFlow's one catalogue (:mod:`fichaflow.i18n`), as ``error.<code>``, so that
the command line, the server and the browser say the same thing in the same words. Seats are
numbered from 0, as in records.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fichaflow import i18n

if TYPE_CHECKING:
    from fichaflow.core.errors import FichaFlowError


def render_error(error: FichaFlowError, lang: str = "es") -> str:
    """The error's text in ``lang``, prefixed with where in a record it happened."""
    key = f"error.{error.code}"
    params = dict(error.params)
    if "left" in params and "right" in params:
        left, right = params["left"], params["right"]
        params["either"] = (
            str(left) if left == right else i18n.text("error.either", lang, left=left, right=right)
        )
    text = i18n.text(key, lang, **params) if i18n.has(key) else error.code
    where = []
    if error.hand is not None:
        where.append(i18n.text("error.at_hand", lang, hand=error.hand))
    if error.move is not None:
        where.append(i18n.text("error.at_move", lang, move=error.move))
    return f"{', '.join(where)}: {text}" if where else text[:1].upper() + text[1:]
