"""The puzzle: a position of a real hand (rules + deal + moves before, lichess style) whose best
move is unique by a stored margin, its values, its exact line and its themes. See
``docs/problemas.md``."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import Hand
from fichaflow.core.rules import Rules
from fichaflow.problemas.solve import deal_of, position

KINDS: Final = ("face_up", "seat")
THEMES: Final = ("domino", "tranque", "pase_redondo", "capicua", "cochina", "zapato", "tapar")
"""The theme keys, in the table's words; each one's name is the i18n key ``problemas.theme.KEY``."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One problem. ``moves`` are the hand's moves before the position, in record notation;
    ``solution`` the line from the position to the point made: the seat's best moves interleaved
    with the other seats' best replies (``solution_seats`` says whose each one is). ``values`` are
    every distinct legal first move's exact value in tantos from the seat's side; ``steps`` the
    same at each of the seat's later turns in the solution (``steps[0]`` is ``values``)."""

    kind: str
    rules: Mapping[str, Any]
    deal: Mapping[str, Any]
    leader: int
    moves: tuple[str, ...]
    seat: int
    solution: tuple[str, ...]
    solution_seats: tuple[int, ...]
    margin: float
    values: Mapping[str, float]
    themes: tuple[str, ...]
    rating: float
    source: Mapping[str, Any]
    steps: tuple[Mapping[str, float], ...] = ()
    decided: Mapping[str, Any] = field(default_factory=dict)
    """A seat problem's way to its answer (empty for a face-up one): ``how`` (``every_deal``:
    best in every consistent deal, all of them solved; ``expected``: best by a wide margin on
    average), ``deals`` (how many were solved), ``all_deals`` (whether that is all of them),
    ``margin_se`` (the standard error of the margin; 0 when all were solved) and
    ``worst_margin`` (the best's smallest margin over the deals: below 0, another move was
    better in some deal)."""
    id: str = field(default="")

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", digest(self._content()))

    def _content(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "rules": dict(self.rules),
            "deal": dict(self.deal),
            "leader": self.leader,
            "moves": list(self.moves),
            "seat": self.seat,
        }

    @property
    def best(self) -> str:
        return self.solution[0]

    def rules_obj(self) -> Rules:
        return Rules.load(dict(self.rules))

    def hand(self) -> Hand:
        """The position, replayed through the core (its checks raise on an impossible one)."""
        return position(self.rules_obj(), deal_of(self.deal), self.leader, self.moves)

    def to_json(self) -> dict[str, Any]:
        out = {"id": self.id, **self._content()}
        out.update(
            solution=list(self.solution),
            solution_seats=list(self.solution_seats),
            margin=self.margin,
            values=dict(self.values),
            steps=[dict(s) for s in self.steps],
            themes=list(self.themes),
            rating=self.rating,
            source=dict(self.source),
        )
        if self.kind == "seat":
            out["decided"] = dict(self.decided)
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Puzzle:
        try:
            puzzle = cls(
                kind=str(data["kind"]),
                rules=dict(data["rules"]),
                deal={"hands": data["deal"]["hands"], "stock": data["deal"].get("stock", [])},
                leader=int(data["leader"]),
                moves=tuple(data["moves"]),
                seat=int(data["seat"]),
                solution=tuple(data["solution"]),
                solution_seats=tuple(int(s) for s in data["solution_seats"]),
                margin=float(data["margin"]),
                values={str(k): float(v) for k, v in data["values"].items()},
                steps=tuple({str(k): float(v) for k, v in s.items()} for s in data["steps"]),
                themes=tuple(data["themes"]),
                rating=float(data["rating"]),
                source=dict(data["source"]),
                decided=dict(data.get("decided") or {}),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise FichaFlowError("problemas.bad_puzzle", detail=str(exc)) from None
        if puzzle.kind not in KINDS or (puzzle.kind == "seat") != bool(puzzle.decided):
            raise FichaFlowError("problemas.bad_puzzle", detail=f"kind {puzzle.kind}")
        if "id" in data and data["id"] != puzzle.id:
            raise FichaFlowError("problemas.bad_puzzle", detail=f"id {data['id']}")
        return puzzle


def digest(content: Mapping[str, Any]) -> str:
    """A stable id: the first 16 hex digits of the SHA-256 of the position's canonical JSON."""
    text = json.dumps(content, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]
