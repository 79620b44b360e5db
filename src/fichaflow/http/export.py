"""What every service's spreadsheet exports share: a cell written so that a spreadsheet shows it
as text, never runs it as a formula (the anotador's score sheets and the torneos' standings)."""

from __future__ import annotations

from typing import Final

FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula (OWASP, "CSV injection")."""


def csv_cell(value: int | str) -> int | str:
    """A cell a spreadsheet shows as written: text that begins like a formula (a player named
    ``=HYPERLINK(...)`` heads a column in English) gets a leading ``'``, which spreadsheets
    take as "this is text". Numbers are left alone: -5 is a score, not a formula, and must
    stay a number to add up."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
