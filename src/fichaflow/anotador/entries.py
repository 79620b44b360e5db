"""What the anotador writes down: hands, adjustments, and the corrections made to them.

A mesa's sheet is a log of actions, never a table of totals: every figure on the sheet is derived
by replaying the log through the engine's scoring (see :mod:`fichaflow.anotador.sheet`). Each
action has a JSON form, the one the API takes and the database keeps; reading it checks its shape
and answers bad input with a Spanish error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from fichaflow.anotador.mesa import name_of
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import EndKind
from fichaflow.core.names import hidden_char

REASON_MAX: Final = 80
ADJUST_MAX: Final = 1000
"""An adjustment adds or takes at most this many points (a bonus's bound, twice the highest
target): enough for any penalty a table agrees on, and a number every store and client keeps."""
CUSTOMS: Final = ("same", "parados")
ACTION_TYPES: Final = ("hand", "adjust", "edit", "delete", "undo", "new_partida", "queue")


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand as a real table reports it.

    ``seat`` dominated (dominó) or placed the closing tile (tranque). ``pips`` holds what each
    seat still has, ``None`` where the rule did not ask; ``team_pips`` holds each pair's total
    instead, for a tranque by pairs. ``leader`` is who led, ``None`` for "whoever the rules say"."""

    end: EndKind
    seat: int
    pips: tuple[int | None, ...] = ()
    team_pips: tuple[int, ...] | None = None
    leader: int | None = None
    capicua: bool = False
    chuchazo: bool = False
    salida_pasada: bool = False
    pase_redondo: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Adjustment:
    """Points the mesa decides outside a hand (a cabra, for example); may be negative."""

    team: int
    points: int
    reason: str


Entry = HandEntry | Adjustment


@dataclass(frozen=True, slots=True)
class AddEntry:
    entry: Entry


@dataclass(frozen=True, slots=True)
class EditEntry:
    """Replace an earlier entry of the current partida; everything after it is recomputed."""

    target: str
    entry: Entry


@dataclass(frozen=True, slots=True)
class DeleteEntry:
    target: str


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last action that is still in force (an undo is not undone by another)."""


@dataclass(frozen=True, slots=True)
class NewPartida:
    """Start the next partida: ``same`` people in the same seats, or by the ``parados`` custom."""

    custom: str


@dataclass(frozen=True, slots=True)
class SetQueue:
    """The players waiting to sit down, in the order they will."""

    queue: tuple[str, ...]


Change = AddEntry | EditEntry | DeleteEntry | Undo | NewPartida | SetQueue


@dataclass(frozen=True, slots=True)
class Action:
    """One change to a mesa, with the id the log knows it by (a line keeps its adding action's
    id, so that edits and deletions can name it)."""

    id: str
    change: Change


# --- JSON -------------------------------------------------------------------------------------


def _keys(data: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    for key in data:
        if key not in allowed:
            raise FichaFlowError("anotador.unknown_key", key=key, allowed=", ".join(allowed))


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FichaFlowError("anotador.not_int", field=what)
    return value


def _opt_int(value: object, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _bool(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise FichaFlowError("anotador.not_bool", field=what)
    return value


def _list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise FichaFlowError("anotador.not_list", field=what)
    return value


HAND_KEYS: Final = (
    "type", "end", "seat", "pips", "team_pips", "leader",
    "capicua", "chuchazo", "salida_pasada", "pase_redondo",
)  # fmt: skip
ADJUST_KEYS: Final = ("type", "team", "points", "reason")


def load_entry(data: object) -> Entry:
    """A hand (``{"type": "hand", ...}``) or an adjustment (``{"type": "adjust", ...}``)."""
    if not isinstance(data, Mapping):
        raise FichaFlowError("anotador.line_object")
    kind = data.get("type")
    if kind == "hand":
        _keys(data, HAND_KEYS)
        end = data.get("end")
        if end not in (EndKind.DOMINO, EndKind.TRANQUE):
            raise FichaFlowError("anotador.choice", field="end", allowed="domino, tranque")
        pips = tuple(_opt_int(p, "pips") for p in _list(data.get("pips", []), "pips"))
        team_raw = data.get("team_pips")
        team_pips = (
            None
            if team_raw is None
            else tuple(_int(p, "team_pips") for p in _list(team_raw, "team_pips"))
        )
        return HandEntry(
            end=EndKind(end),
            seat=_int(data.get("seat"), "seat"),
            pips=pips,
            team_pips=team_pips,
            leader=_opt_int(data.get("leader"), "leader"),
            capicua=_bool(data.get("capicua", False), "capicua"),
            chuchazo=_bool(data.get("chuchazo", False), "chuchazo"),
            salida_pasada=_bool(data.get("salida_pasada", False), "salida_pasada"),
            pase_redondo=tuple(
                _int(s, "pase_redondo") for s in _list(data.get("pase_redondo", []), "pase_redondo")
            ),
        )
    if kind == "adjust":
        _keys(data, ADJUST_KEYS)
        points = data.get("points")
        if (
            isinstance(points, bool)
            or not isinstance(points, int)
            or points == 0
            or abs(points) > ADJUST_MAX
        ):
            raise FichaFlowError("anotador.points", value=points, max=ADJUST_MAX)
        reason = data.get("reason")
        if not isinstance(reason, str) or not reason.strip():
            raise FichaFlowError("anotador.reason")
        hidden = hidden_char(reason)
        if hidden is not None:
            raise FichaFlowError("anotador.reason_control", char=hidden)
        if len(reason.strip()) > REASON_MAX:
            raise FichaFlowError("anotador.reason_long", max=REASON_MAX)
        return Adjustment(_int(data.get("team"), "team"), points, reason.strip())
    raise FichaFlowError("anotador.choice", field="type", allowed="hand, adjust")


def dump_entry(entry: Entry) -> dict[str, Any]:
    if isinstance(entry, Adjustment):
        return {
            "type": "adjust",
            "team": entry.team,
            "points": entry.points,
            "reason": entry.reason,
        }
    out: dict[str, Any] = {"type": "hand", "end": str(entry.end), "seat": entry.seat}
    out["pips"] = list(entry.pips)
    if entry.team_pips is not None:
        out["team_pips"] = list(entry.team_pips)
    out["leader"] = entry.leader
    for flag in ("capicua", "chuchazo", "salida_pasada"):
        if getattr(entry, flag):
            out[flag] = True
    if entry.pase_redondo:
        out["pase_redondo"] = list(entry.pase_redondo)
    return out


def load_change(data: object, *, stored: bool = False) -> Change:
    """An action's change from its JSON form; ``type`` says which. Names in a new queue meet
    the name rule unless the change was ``stored`` (see :meth:`MesaSetup.load`)."""
    if not isinstance(data, Mapping):
        raise FichaFlowError("anotador.action_object")
    kind = data.get("type")
    if kind in ("hand", "adjust"):
        return AddEntry(load_entry(data))
    if kind == "edit":
        _keys(data, ("type", "target", "entry"))
        return EditEntry(_target(data.get("target")), load_entry(data.get("entry")))
    if kind == "delete":
        _keys(data, ("type", "target"))
        return DeleteEntry(_target(data.get("target")))
    if kind == "undo":
        _keys(data, ("type",))
        return Undo()
    if kind == "new_partida":
        _keys(data, ("type", "custom"))
        custom = data.get("custom", "same")
        if custom not in CUSTOMS:
            raise FichaFlowError("anotador.choice", field="custom", allowed=", ".join(CUSTOMS))
        return NewPartida(str(custom))
    if kind == "queue":
        _keys(data, ("type", "queue"))
        names = _list(data.get("queue"), "queue")
        if not all(isinstance(n, str) for n in names):
            raise FichaFlowError("anotador.not_names", field="queue")
        return SetQueue(tuple(name_of(n, stored=stored) for n in names))
    raise FichaFlowError("anotador.choice", field="type", allowed=", ".join(ACTION_TYPES))


def _target(value: object) -> str:
    if not isinstance(value, str | int) or isinstance(value, bool) or str(value) == "":
        raise FichaFlowError("anotador.target")
    return str(value)


def dump_change(change: Change) -> dict[str, Any]:
    if isinstance(change, AddEntry):
        return dump_entry(change.entry)
    if isinstance(change, EditEntry):
        return {"type": "edit", "target": change.target, "entry": dump_entry(change.entry)}
    if isinstance(change, DeleteEntry):
        return {"type": "delete", "target": change.target}
    if isinstance(change, Undo):
        return {"type": "undo"}
    if isinstance(change, NewPartida):
        return {"type": "new_partida", "custom": change.custom}
    return {"type": "queue", "queue": list(change.queue)}
