"""The sheet as the page and the API show it: one JSON object with everything on the screen.

It also carries each hand's entry form (:func:`hand_form` for every way a hand can end), so the
page asks only what the rule needs even while it has no network.
"""

from __future__ import annotations

from typing import Any

from fichaflow.anotador.export import sheet_json
from fichaflow.anotador.forms import hand_form
from fichaflow.anotador.sheet import MesaState, PartidaSheet
from fichaflow.anotador.standings import Standing, standings
from fichaflow.core.hand import EndKind


def forms_json(sheet: PartidaSheet) -> dict[str, list[dict[str, Any]]]:
    """For ``domino`` and ``tranque``, one form per seat: the seats or pairs to ask, in order,
    and the bonus toggles."""
    out: dict[str, list[dict[str, Any]]] = {}
    for end in EndKind:
        out[str(end)] = []
        for seat in range(sheet.rules.seats):
            form = hand_form(sheet.rules, end, seat)
            out[str(end)].append(
                {
                    "seats": list(form.seats),
                    "teams": list(form.teams),
                    "toggles": list(form.toggles),
                }
            )
    return out


def _standing(s: Standing) -> dict[str, int]:
    return {
        "partidas": s.partidas,
        "won": s.won,
        "hands_won": s.hands_won,
        "points_for": s.points_for,
        "points_against": s.points_against,
        "zapatos_given": s.zapatos_given,
        "zapatos_taken": s.zapatos_taken,
    }


def state_json(state: MesaState, lang: str = "es") -> dict[str, Any]:
    """The whole mesa: its rules and forms, the current partida in full, the earlier ones in
    short, the queue and the standings."""
    rules = state.mesa.rules
    table = standings(state)
    current = state.current
    last = state.in_force[-1].id if state.in_force else None
    return {
        "name": state.mesa.name,
        "rules": rules.dump(),
        "options": rules.options(),
        "target": rules.target,
        "mode": str(rules.mode),
        "seats": rules.seats,
        "teams": rules.teams,
        "forms": forms_json(current),
        "partida": sheet_json(current, lang),
        "history": [
            {
                "number": p.number,
                "sides": [p.side(t, lang) for t in range(rules.teams)],
                "totals": list(p.totals),
                "winner": p.winner,
                "zapato": p.zapato,
                "chancleta": p.chancleta,
                "hands": sum(1 for line in p.lines if line.hand is not None),
            }
            for p in state.partidas[:-1]
        ],
        "queue": list(state.queue),
        "can_undo": last is not None,
        "standings": {
            "players": [{"name": n, **_standing(s)} for n, s in table.players],
            "pairs": [{"names": list(n), **_standing(s)} for n, s in table.pairs],
        },
    }
