"""One error type for everything a user can get wrong, with a code and a Spanish text.

An error carries a stable ``code`` (for programs and the protocol) and the ``params`` that fill
its text; :mod:`fichaflow.core.messages` words it from the catalogue (:mod:`fichaflow.i18n`,
keys ``error.<code>``), Spanish first and English on request. ``where`` says where in a record
the problem is.
"""

from __future__ import annotations

from typing import Any


class FichaFlowError(Exception):
    """Bad input, an illegal move or a rule that does not exist. Nothing was changed."""

    def __init__(self, code: str, **params: Any) -> None:
        self.code = code
        self.params = params
        self.hand: int | None = None
        self.move: int | None = None
        super().__init__(self.message("es"))

    def at(self, hand: int | None = None, move: int | None = None) -> FichaFlowError:
        """Locate the error in a record (1-based hand and move numbers) and return it."""
        if hand is not None:
            self.hand = hand
        if move is not None:
            self.move = move
        self.args = (self.message("es"),)
        return self

    def message(self, lang: str = "es") -> str:
        """The error in one line, with where it happened."""
        from fichaflow.core.messages import render_error

        return render_error(self, lang)

    def __str__(self) -> str:
        return self.message("es")


class IllegalMove(FichaFlowError):
    """A move the rules do not allow in this position."""


class RulesError(FichaFlowError):
    """An option or value that does not exist, or a combination the contract refuses."""


class RecordError(FichaFlowError):
    """A game record that cannot be read or does not replay."""
