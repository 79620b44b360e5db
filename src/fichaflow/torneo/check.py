"""Re-checking a whole torneo record, as ``fichaflow torneo check`` does.

Reading the record (:func:`fichaflow.torneo.model.load`) already checks its shape and every
result. On top of that, every round is paired again from the record as it stood when the round
was made (its first rounds and the first ``made_after`` lines of the log) and must come out the
same; no result is older than its round; each revealed duplicate seed must match its commitment
(and a finished duplicate round must have revealed it); an online partida's record must replay
to the score entered; and the standings are recomputed from the log.
"""

from __future__ import annotations

from dataclasses import dataclass

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.record import parse_record
from fichaflow.torneo.duplicate import check_seed
from fichaflow.torneo.model import Torneo, fail, from_partida, load, parse_json
from fichaflow.torneo.pairing import pair_round
from fichaflow.torneo.standings import Standing, standings


@dataclass(frozen=True, slots=True)
class Report:
    rounds: int
    results: int
    corrections: int
    seeds: int
    records: int
    standings: list[Standing]


def check(torneo: Torneo) -> Report:
    """Raise the first problem as a FichaFlowError naming it, or report what was checked."""
    previous = 0
    for made in torneo.rounds:
        if made.made_after < previous:
            raise fail("torneo.made_after", round=made.number)
        previous = made.made_after
        tables, byes = pair_round(torneo, made.number, made.made_after)
        if tables != made.tables or byes != made.byes:
            raise fail("torneo.pairing_differs", round=made.number)
    for index, entry in enumerate(torneo.log):
        if index < torneo.round(entry.round).made_after:
            raise fail("torneo.result_before_round", round=entry.round, table=entry.table)
    seeds = 0
    if torneo.settings.duplicate:
        for made in torneo.rounds:
            if check_seed(made):
                seeds += 1
            elif torneo.round_complete(made.number):
                raise fail("torneo.seed_not_revealed", round=made.number)
    records = 0
    for (round_number, table), result in torneo.results().items():
        if result.record is None:
            continue
        try:
            replayed = from_partida(result.record)
        except FichaFlowError as exc:
            detail = exc.message()
            raise fail(
                "torneo.bad_partida_record", round=round_number, table=table, detail=detail
            ) from None
        if (
            parse_record(result.record).rules != torneo.settings.rules
            or replayed.score != result.score
        ):
            raise fail("torneo.record_differs", round=round_number, table=table)
        records += 1
    results = len(torneo.results())
    corrections = len(torneo.audit())
    return Report(len(torneo.rounds), results, corrections, seeds, records, standings(torneo))


def check_text(text: str | bytes) -> Report:
    return check(load(parse_json(text)))
