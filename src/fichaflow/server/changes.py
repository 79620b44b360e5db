"""What one accepted action writes: a list of small records, committed in one transaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class NewMesa:
    code: str
    rules: dict[str, Any]
    options: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SetMesa:
    code: str
    rules: dict[str, Any]
    options: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SetVersion:
    """The mesa's count of accepted actions, one more than before. It is written only if the
    stored count is ``version - 1`` and the mesa's lease still has the fencing token ``fence``
    (this server took it, and nobody has taken it since): else the whole action is refused."""

    code: str
    version: int
    fence: int


@dataclass(frozen=True, slots=True)
class SetLease:
    """A new mesa's lease, held by the server that created it."""

    code: str
    owner: str
    fence: int
    until: int  # Unix time in milliseconds


@dataclass(frozen=True, slots=True)
class NewPerson:
    mesa: str
    id: int
    name: str
    token_hash: str
    is_host: bool
    account: str | None = None
    """The signed-in player's account (None: a guest)."""


@dataclass(frozen=True, slots=True)
class SetAccount:
    """A guest who signed up is now the account's person at the mesa."""

    mesa: str
    person: int
    account: str


@dataclass(frozen=True, slots=True)
class SetQueue:
    """The whole parados queue, in order (everyone else leaves it)."""

    mesa: str
    people: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SetSeat:
    mesa: str
    seat: int
    person: int | None
    bot: str | None


@dataclass(frozen=True, slots=True)
class NewPartida:
    mesa: str
    number: int
    rules: dict[str, Any]
    players: list[str]
    started: float | None = None
    """When it started, Unix time in milliseconds (None: when it is committed): the clock of a
    partida played by time runs from it."""


@dataclass(frozen=True, slots=True)
class CallTime:
    """Time is up in a partida played by time: where the call came, as the record writes it."""

    mesa: str
    partida: int
    hand: int
    moves: int


@dataclass(frozen=True, slots=True)
class EndPartida:
    mesa: str
    number: int
    winner: int


@dataclass(frozen=True, slots=True)
class NewHand:
    mesa: str
    partida: int
    number: int
    seed: str
    commitment: str
    leader: int


@dataclass(frozen=True, slots=True)
class NewMove:
    mesa: str
    partida: int
    hand: int
    number: int
    seat: int
    notation: str
    timed_out: bool


Change = (
    NewMesa
    | SetMesa
    | SetVersion
    | SetLease
    | NewPerson
    | SetAccount
    | SetQueue
    | SetSeat
    | NewPartida
    | EndPartida
    | CallTime
    | NewHand
    | NewMove
)


@dataclass(frozen=True, slots=True)
class PersonSnapshot:
    id: int
    name: str
    token_hash: str
    is_host: bool
    queue_pos: int | None
    account: str | None = None


@dataclass(frozen=True, slots=True)
class SeatSnapshot:
    seat: int
    person: int | None
    bot: str | None


@dataclass(frozen=True, slots=True)
class PartidaSnapshot:
    number: int
    rules: dict[str, Any]
    players: list[str]
    started: float | None = None
    """When it started, Unix time in milliseconds."""
    time_up: tuple[int, int] | None = None
    """Where time was called (``Partida.time_up``), if it was."""


@dataclass(frozen=True, slots=True)
class HandSnapshot:
    number: int
    seed: str
    leader: int
    moves: tuple[str, ...]
    last_action: float | None = None
    """When its deal or its newest move was stored, Unix time in milliseconds: where the turn
    under way began (None when the hand was not read from the database)."""


@dataclass(frozen=True, slots=True)
class MesaSnapshot:
    """A mesa as stored: enough to rebuild it by replaying its current partida."""

    code: str
    rules: dict[str, Any]
    options: dict[str, Any]
    version: int
    people: tuple[PersonSnapshot, ...]
    seats: tuple[SeatSnapshot, ...]
    partida: PartidaSnapshot | None
    hands: tuple[HandSnapshot, ...]
