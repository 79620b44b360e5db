"""A partida taken away from the mesa: JSON (everything), CSV (a spreadsheet) and a printable
score sheet (HTML). All three are read off the derived sheet, so they agree with the screen."""

from __future__ import annotations

import csv
import io
from functools import partial
from html import escape
from typing import Any

from fichaflow import i18n
from fichaflow.anotador.entries import Adjustment, HandEntry, dump_entry
from fichaflow.anotador.sheet import Line, MesaState, PartidaSheet
from fichaflow.http.export import csv_cell


def _word(lang: str, key: str, **params: object) -> str:
    """The export's words: the catalogue's ``anotador.sheet.*`` keys."""
    return i18n.text(f"anotador.sheet.{key}", lang, **params)


def line_json(sheet: PartidaSheet, line: Line, lang: str = "es") -> dict[str, Any]:
    """A line as the API and the JSON export give it."""
    out: dict[str, Any] = {
        "id": line.id,
        "hand": line.hand,
        "entry": dump_entry(line.entry),
        "leader": line.leader,
        "gains": list(line.gains),
        "totals": list(line.totals),
        "explanation": sheet.explain(line, lang),
    }
    if line.score is not None:
        out["result"] = line.score.to_json(sheet.rules.teams)
    return out


def sheet_json(sheet: PartidaSheet, lang: str = "es") -> dict[str, Any]:
    rules = sheet.rules
    return {
        "number": sheet.number,
        "players": list(sheet.seating),
        "teams_of_seats": [rules.team_of(s) for s in range(rules.seats)],
        "sides": [sheet.side(t, lang) for t in range(rules.teams)],
        "lines": [line_json(sheet, line, lang) for line in sheet.lines],
        "totals": list(sheet.totals),
        "winner": sheet.winner,
        "zapato": sheet.zapato,
        "chancleta": sheet.chancleta,
        "next_leader": sheet.next_leader,
        "hands": sum(1 for line in sheet.lines if line.hand is not None),
    }


def partida_json(state: MesaState, sheet: PartidaSheet, lang: str = "es") -> dict[str, Any]:
    """The JSON export: the sheet the page shows, with its mesa and rules."""
    rules = sheet.rules
    body = sheet_json(sheet, lang)
    body.pop("number")
    return {
        "mesa": state.mesa.name,
        "partida": sheet.number,
        "rules": rules.dump(),
        "options": rules.options(),
        "target": rules.target,
        **body,
    }


def _kind(line: Line, lang: str) -> str:
    w = partial(_word, lang)
    if isinstance(line.entry, Adjustment):
        return w("adjust")
    assert isinstance(line.entry, HandEntry)
    return w("hand", n=line.hand)


def partida_csv(sheet: PartidaSheet, lang: str = "es") -> str:
    """One row per line: its number, kind, explanation, what each side scored and the totals.
    Every text cell goes through :func:`csv_cell`."""
    w = partial(_word, lang)
    sides = [sheet.side(t, lang) for t in range(sheet.rules.teams)]
    head = [w("line"), w("kind"), w("detail")]
    head += [w("gain", side=s) for s in sides] + [w("total", side=s) for s in sides]
    rows: list[list[int | str]] = [[*head]]
    for number, line in enumerate(sheet.lines, 1):
        detail = " ".join(sheet.explain(line, lang))
        rows.append([number, _kind(line, lang), detail, *line.gains, *line.totals])
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerows([csv_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()


PRINT_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #444; padding: .3em .5em; vertical-align: top; text-align: left; }
td.n { text-align: right; white-space: nowrap; }
small { color: #555; }
@media print { body { margin: 0; } }
"""
"""The printable sheet's style, inside the page so that a saved copy prints the same; the page's
Content-Security-Policy allows this block by its hash and no other."""


def partida_html(state: MesaState, sheet: PartidaSheet, lang: str = "es") -> str:
    """A score sheet to print: the rules, one row per line with its explanation, the totals."""
    w = partial(_word, lang)
    rules = sheet.rules
    sides = [sheet.side(t, lang) for t in range(rules.teams)]
    title = f"{state.mesa.name} — {w('partida', n=sheet.number)}"
    head = "".join(f"<th>{escape(s)}</th>" for s in sides)
    rows = []
    for line in sheet.lines:
        detail = "<br>".join(escape(t) for t in sheet.explain(line, lang))
        if line.leader is not None:
            led = escape(w("led", name=sheet.seating[line.leader]))
            detail = f"<small>{led}</small><br>{detail}"
        cells = "".join(
            f"<td class=n>{g:+d}<br><b>{t}</b></td>" if g else f"<td class=n><b>{t}</b></td>"
            for g, t in zip(line.gains, line.totals, strict=True)
        )
        rows.append(f"<tr><th>{escape(_kind(line, lang))}</th><td>{detail}</td>{cells}</tr>")
    if sheet.winner is None:
        result = w("playing")
    else:
        result = w("winner", side=sides[sheet.winner])
        if sheet.zapato:
            result += " " + w("zapato")
        if sheet.chancleta:
            result += " " + w("chancleta")
    options = ", ".join(f"{k}={v}" for k, v in rules.options().items())
    totals = "".join(f"<td class=n><b>{t}</b></td>" for t in sheet.totals)
    return f"""<!doctype html>
<html lang="{escape(lang)}"><head><meta charset="utf-8">
<title>{escape(title)}</title>
<style>{PRINT_STYLE}</style></head><body>
<h1>{escape(title)}</h1>
<p>{escape(", ".join(sheet.seating))} · {w("target")}: {rules.target}</p>
<p><small>{w("rules")}: {escape(rules.preset)} ({escape(options)})</small></p>
<table><thead><tr><th></th><th></th>{head}</tr></thead>
<tbody>{"".join(rows)}</tbody>
<tfoot><tr><th colspan=2>{escape(result)}</th>{totals}</tr></tfoot></table>
</body></html>
"""
