"""Dominó duplicado: every table of a round plays the same deals, and each pair is compared with
the pairs who held the same tiles at the other tables.

**The deals.** A round has one secret seed; its commitment, SHA-256 of the seed's text
(:func:`fichaflow.core.deal.commitment`, the same promise a mesa publishes for each hand), is
published before the round is played and the seed revealed after. Deal ``k`` (from 1) of the
round is ``Deal.from_seed(4, f"{seed}/{k}")``, the shuffle of ``docs/records.md`` section 6, and
is led by seat ``(k − 1) mod 4`` with any tile (as a hand after a partida's first). At every
table side ``a`` (seats 0 and 2, «norte–sur») holds the same tiles, and so does side ``b``.

**Matchpoints.** On each deal a pair's result is its points minus its rivals' points in that
hand. It is compared with the result of every pair that sat in the same direction at the other
tables: 2 matchpoints for each one it beat, 1 for each tie (bridge's matchpoint scoring). With
``t`` tables the top on a deal is ``2 (t − 1)``. A table that was forfeited is left out of the
comparison; the side that showed up gets 60% of the top on each deal and the absent side 40%
(bridge's «average plus» and «average minus»); a pair with a bye gets 60% too. Worked example:
``docs/torneos.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from fichaflow.core.deal import Deal, commitment
from fichaflow.torneo.model import Result, Round, Torneo, fail

PRESENT_SHARE = 0.6
ABSENT_SHARE = 0.4


def hand_seed(seed: str, deal: int) -> str:
    """The seed of deal ``deal`` (from 1) of a round whose seed is ``seed``."""
    return f"{seed}/{deal}"


def round_deals(seed: str, count: int) -> list[Deal]:
    """The ``count`` deals every table of the round plays."""
    return [Deal.from_seed(4, hand_seed(seed, k)) for k in range(1, count + 1)]


def leader(deal: int) -> int:
    """The seat that leads deal ``deal`` (from 1)."""
    return (deal - 1) % 4


def matchpoints(results: Sequence[int]) -> list[int]:
    """For the results of the pairs who held the same tiles, each one's matchpoints: 2 for
    every other result it beats, 1 for every one it ties."""
    return [sum(2 if r > o else 1 if r == o else 0 for o in results) - 1 for r in results]


def round_matchpoints(
    torneo: Torneo, made: Round, results: Mapping[tuple[int, int], Result]
) -> dict[int, tuple[float, float]]:
    """Each entrant's matchpoints in a duplicate round and the most it could have had."""
    deals = torneo.settings.duplicate_deals
    played = []
    forfeited = []
    for table in made.tables:
        result = results.get((made.number, table.number))
        if result is None:
            continue
        if result.deals is not None:
            played.append((table, result.deals))
        elif result.forfeit is not None:
            forfeited.append((table, result.forfeit))
    top = 2 * (len(played) - 1) if played else 0
    out: dict[int, tuple[float, float]] = {}
    totals = {t.number: [0, 0] for t, _ in played}
    for k in range(deals):
        north = [d[k][0] - d[k][1] for _, d in played]
        for (table, _), mp in zip(played, matchpoints(north), strict=True):
            totals[table.number][0] += mp
        for (table, _), mp in zip(played, matchpoints([-n for n in north]), strict=True):
            totals[table.number][1] += mp
    for table, _ in played:
        a, b = totals[table.number]
        out |= {e: (float(a), float(top * deals)) for e in table.a}
        out |= {e: (float(b), float(top * deals)) for e in table.b}
    most = float(max(top, 2) * deals)
    for table, absent in forfeited:
        present, away = (table.b, table.a) if absent == "a" else (table.a, table.b)
        out |= {e: (PRESENT_SHARE * most, most) for e in present}
        out |= {e: (ABSENT_SHARE * most, most) for e in away}
    out |= {e: (PRESENT_SHARE * most, most) for e in made.byes}
    return out


def check_seed(made: Round) -> bool:
    """Whether a duplicate round's revealed seed keeps its promise (False if not revealed)."""
    if made.seed is None or made.commitment is None:
        return False
    if commitment(made.seed) != made.commitment.lower():
        raise fail("torneo.seed_commitment", round=made.number)
    return True
