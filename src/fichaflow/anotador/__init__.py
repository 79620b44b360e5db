"""The anotador: keep the score of a real table, hand by hand, with the engine's arithmetic.

Pure Python, no I/O: a :class:`MesaSetup` and its log of :class:`Action` give the whole sheet
(:func:`replay`); the server stores the log and serves the sheet.
"""

from fichaflow.anotador.entries import (
    Action,
    AddEntry,
    Adjustment,
    DeleteEntry,
    EditEntry,
    HandEntry,
    NewPartida,
    SetQueue,
    Undo,
    load_change,
    load_entry,
)
from fichaflow.anotador.forms import HandForm, facts_for, hand_form
from fichaflow.anotador.mesa import MesaSetup
from fichaflow.anotador.sheet import Line, MesaState, PartidaSheet, replay
from fichaflow.anotador.standings import Standing, Standings, standings

__all__ = [
    "Action",
    "AddEntry",
    "Adjustment",
    "DeleteEntry",
    "EditEntry",
    "HandEntry",
    "HandForm",
    "Line",
    "MesaSetup",
    "MesaState",
    "NewPartida",
    "PartidaSheet",
    "SetQueue",
    "Standing",
    "Standings",
    "Undo",
    "facts_for",
    "hand_form",
    "load_change",
    "load_entry",
    "replay",
    "standings",
]
