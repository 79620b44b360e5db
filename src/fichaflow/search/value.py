"""What a finished hand is worth to a side, asked of the scorekeeper and remembered.

The count, tranque and bonus rules live in :func:`fichaflow.core.scoring.score_hand` alone; the
search only memoizes its answers, keyed by the facts of the hand's end.
"""

from __future__ import annotations

from typing import Final

from fichaflow.core.hand import EndKind
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import HandFacts, score_hand
from fichaflow.search.engine import DOMINO

_MEMO_LIMIT: Final = 500_000


class Valuer:
    """Turns a search hand's end key into each team's gains, and a side's point difference."""

    __slots__ = ("_memo", "rules", "team_of", "teams")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.teams = rules.teams
        self.team_of = tuple(rules.team_of(s) for s in range(rules.seats))
        self._memo: dict[tuple[object, ...], tuple[int, ...]] = {}

    def gains(self, key: tuple[object, ...]) -> tuple[int, ...]:
        """What each team adds for the hand that ended as ``key`` says (points and bonuses)."""
        found = self._memo.get(key)
        if found is None:
            kind, seat, pips, leader, capicua, chuchazo, pase_redondo, salida_pasada = key
            facts = HandFacts(
                end=EndKind.DOMINO if kind == DOMINO else EndKind.TRANQUE,
                seat=seat,  # type: ignore[arg-type]
                pips=pips,  # type: ignore[arg-type]
                leader=leader,  # type: ignore[arg-type]
                capicua=bool(capicua),
                chuchazo=bool(chuchazo),
                pase_redondo=pase_redondo,  # type: ignore[arg-type]
                salida_pasada=bool(salida_pasada),
            )
            found = score_hand(self.rules, facts).gains(self.teams)
            if len(self._memo) >= _MEMO_LIMIT:
                self._memo.clear()
            self._memo[key] = found
        return found

    def value(self, key: tuple[object, ...], team: int) -> int:
        """``team``'s gain against the others': its gain times the number of other teams minus
        their gains (with two teams, simply the point difference of the hand)."""
        gains = self.gains(key)
        mine = gains[team]
        return mine * self.teams - sum(gains)
