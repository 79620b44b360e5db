"""A player's statistics, from the records of the partidas they played: each figure is counted
in one place here, from what the core says happened (its scoring of every hand, the zapato of a
partida). Pure: a record in, numbers out."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from fichaflow.core.hand import EndKind
from fichaflow.core.partida import Partida, is_zapato
from fichaflow.core.record import parse_record, replay


@dataclass(slots=True)
class Stats:
    """What a domino player counts of their own play, over some partidas."""

    partidas: int = 0
    partidas_won: int = 0
    hands: int = 0
    hands_won: int = 0
    tantos: int = 0
    """Tantos the player's side added in their hands (bonuses included)."""
    dominadas_won: int = 0
    """Hands the player's side won by dominating (the player or the partner went out)."""
    tranques_won: int = 0
    capicuas: int = 0
    """Hands the player dominated with a capicúa (their last tile fitting both ends)."""
    zapatos_given: int = 0
    zapatos_taken: int = 0

    @property
    def tantos_per_hand(self) -> float:
        return round(self.tantos / self.hands, 1) if self.hands else 0.0

    def json(self) -> dict[str, Any]:
        return {**asdict(self), "tantos_per_hand": self.tantos_per_hand}


def replayed(record: dict[str, Any]) -> Partida:
    """The partida a stored record (the game's, seeds and commitments included) describes."""
    plain = {k: v for k, v in record.items() if k != "meta"}
    plain["hands"] = [
        {k: v for k, v in hand.items() if k not in ("seed", "commitment")}
        for hand in record.get("hands", [])
    ]
    return replay(parse_record(plain))


def count(stats: Stats, partida: Partida, seat: int) -> None:
    """Add one finished partida, played from ``seat``, to ``stats``."""
    rules = partida.rules
    team = rules.team_of(seat)
    stats.partidas += 1
    stats.partidas_won += partida.winner == team
    for played in partida.played:
        score = played.score
        facts = score.facts
        stats.hands += 1
        stats.tantos += score.gains(rules.teams)[team]
        if score.winner != team:
            continue
        stats.hands_won += 1
        if facts.end is EndKind.DOMINO:
            stats.dominadas_won += 1
            stats.capicuas += facts.capicua and facts.seat == seat
        elif facts.end is EndKind.TRANQUE:
            stats.tranques_won += 1
    if is_zapato(partida.scores, partida.winner):
        if partida.winner == team:
            stats.zapatos_given += 1
        else:
            stats.zapatos_taken += 1
