"""A mesa: who plays, by which rules, where each one sits, and who waits to sit down.

Seats are in turn order (play passes from seat i to seat i+1), which is what "con el de abajo"
and the salida go by; in parejas, seats 0 and 2 are one pair and seats 1 and 3 the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.explain import team_name
from fichaflow.core.names import LABEL_MAX, NAME_MAX, player_name
from fichaflow.core.rules import Rules

MESA_KEYS: Final = ("name", "rules", "players", "queue", "teams")


@dataclass(frozen=True, slots=True)
class MesaSetup:
    """The mesa as it was set up: its name, rules, the first partida's seating and queue, and
    optional names for the sides ("" where the players' names will do). What happened since is
    the :class:`~fichaflow.anotador.sheet.MesaState` that replaying its log gives (the game
    server's live table is another thing, :class:`fichaflow.server.mesa.Mesa`)."""

    name: str
    rules: Rules
    seating: tuple[str, ...]
    queue: tuple[str, ...] = ()
    team_names: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise FichaFlowError("anotador.mesa_name")
        check_seating(self.rules, self.seating, self.queue)
        if self.team_names and len(self.team_names) != self.rules.teams:
            raise FichaFlowError(
                "anotador.teams_count", found=len(self.team_names), teams=self.rules.teams
            )

    @classmethod
    def load(cls, data: object, *, stored: bool = False) -> MesaSetup:
        """A mesa from its JSON form: ``{"name", "rules", "players", "queue"?, "teams"?}``.

        Names that come in meet the name rule (:func:`fichaflow.core.names.player_name`, the
        game's too) and are kept in its normal form; a ``stored`` mesa's names are read as they
        were saved, so that a mesa saved under an older rule still opens."""
        if not isinstance(data, Mapping):
            raise FichaFlowError("anotador.mesa_object")
        for key in data:
            if key not in MESA_KEYS:
                raise FichaFlowError("anotador.unknown_key", key=key, allowed=", ".join(MESA_KEYS))
        rules = Rules.load(data.get("rules", "dominicana"))
        name = data.get("name", "")
        return cls(
            name=name_of(name, LABEL_MAX, stored) if isinstance(name, str) else "",
            rules=rules,
            seating=_names(data.get("players"), "players", stored),
            queue=_names(data.get("queue", []), "queue", stored),
            team_names=_names(data.get("teams", []), "teams", stored, LABEL_MAX, allow_empty=True),
        )

    def dump(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "rules": self.rules.dump(),
            "players": list(self.seating),
            "queue": list(self.queue),
        }
        if any(self.team_names):
            out["teams"] = list(self.team_names)
        return out


def name_of(text: str, limit: int = NAME_MAX, stored: bool = False) -> str:
    """A name as the mesa keeps it: a stored name as it was saved; "" for a blank one (the caller
    says whose name is missing); else the name rule's normal form."""
    if stored:
        return text
    return player_name(text, limit) if text.split() else ""


def _names(
    value: object, what: str, stored: bool, limit: int = NAME_MAX, allow_empty: bool = False
) -> tuple[str, ...]:
    if value is None:
        value = []
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise FichaFlowError("anotador.not_names", field=what)
    names = tuple(name_of(n, limit, stored) for n in value)
    if not allow_empty:
        for seat, name in enumerate(names):
            if not name:
                raise FichaFlowError("anotador.name_empty", seat=seat)
    return names


def check_seating(rules: Rules, seating: Sequence[str], queue: Sequence[str]) -> None:
    """Every seat taken by one named player, nobody twice, nobody both seated and waiting."""
    if len(seating) != rules.seats:
        raise FichaFlowError(
            "anotador.seating", found=len(seating), mode=str(rules.mode), seats=rules.seats
        )
    seen: set[str] = set()
    for seat, name in enumerate((*seating, *queue)):
        if not name.strip():
            raise FichaFlowError("anotador.name_empty", seat=seat)
        if name.casefold() in seen:
            raise FichaFlowError("anotador.name_repeated", name=name)
        seen.add(name.casefold())


def side_label(
    rules: Rules, seating: Sequence[str], team_names: Sequence[str], team: int, lang: str = "es"
) -> str:
    """A side as players read it: its own name if the mesa gave one, else "Ana y Carla"."""
    if team < len(team_names) and team_names[team]:
        return team_names[team]
    return team_name(rules, team, list(seating), lang)


def parados(
    rules: Rules,
    seating: Sequence[str],
    queue: Sequence[str],
    team_names: Sequence[str],
    winner: int,
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The parados custom: the losing side gets up and the first in the queue sit down in its
    seats; those who got up go to the back of the queue. With fewer waiting than losers, only
    as many get up as there are people waiting (the first losing seats in turn order). A side
    that changes players loses its name. Returns the new seating, queue and side names."""
    losing_seats = [s for s in range(rules.seats) if rules.team_of(s) != winner]
    waiting = list(queue)
    up = losing_seats[: len(waiting)]
    new_seating = list(seating)
    for seat in up:
        new_seating[seat] = waiting.pop(0)
    waiting.extend(seating[s] for s in up)
    changed = {rules.team_of(s) for s in up}
    names = tuple("" if t in changed else n for t, n in enumerate(team_names))
    return tuple(new_seating), tuple(waiting), names
