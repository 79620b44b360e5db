"""What a finished hand is worth to a side, asked of the scorekeeper and remembered.

The count, tranque and bonus rules live in :func:`fichaflow.core.scoring.score_hand` alone; the
search only memoizes its answers, keyed by the facts of the hand's end.
"""

from __future__ import annotations

from typing import Final

from fichaflow.core.hand import EndKind
from fichaflow.core.rules import Rules
from fichaflow.core.scoring import HandFacts, score_hand
from fichaflow.search.engine import DOMINO, EndKey

_MEMO_LIMIT: Final = 500_000


class Valuer:
    """Turns a search hand's end key into each team's gains, and a side's point difference."""

    __slots__ = ("_memo", "rules", "team_of", "teams")

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.teams = rules.teams
        self.team_of = tuple(rules.team_of(s) for s in range(rules.seats))
        self._memo: dict[EndKey, tuple[int, ...]] = {}

    def gains(self, key: EndKey) -> tuple[int, ...]:
        """What each team adds for the hand that ended as ``key`` says (points and bonuses)."""
        found = self._memo.get(key)
        if found is None:
            facts = HandFacts(
                end=EndKind.DOMINO if key.kind == DOMINO else EndKind.TRANQUE,
                seat=key.seat,
                pips=key.pips,
                leader=key.leader,
                capicua=key.capicua,
                chuchazo=key.chuchazo,
                pase_redondo=key.pase_redondo,
                salida_pasada=key.salida_pasada,
            )
            found = score_hand(self.rules, facts).gains(self.teams)
            if len(self._memo) >= _MEMO_LIMIT:
                self._memo.clear()
            self._memo[key] = found
        return found

    def tantos(self, value: float) -> float:
        """A :meth:`value` in tantos net of the others': with three teams, of their average (the
        value counts each other team once, so it is divided by how many there are)."""
        return value / (self.teams - 1)

    def value(self, key: EndKey, team: int) -> int:
        """``team``'s gain against the others': its gain times the number of other teams minus
        their gains (with two teams, simply the point difference of the hand)."""
        gains = self.gains(key)
        mine = gains[team]
        return mine * self.teams - sum(gains)


_valuers: dict[Rules, Valuer] = {}


def valuer_for(rules: Rules) -> Valuer:
    """One memoized scorekeeper per table's rules, shared by every search in the process that
    asks for it (the Repaso's evaluations, the problemas' solving)."""
    found = _valuers.get(rules)
    if found is None:
        found = _valuers[rules] = Valuer(rules)
    return found
