"""Bots playing bots: single hands and partidas, duplicate matches and their statistics."""

from fichaflow.match.duplicate import DuelResult, arrangements, run_duel
from fichaflow.match.play import HandResult, PartidaResult, play_hand, play_partida

__all__ = [
    "DuelResult",
    "HandResult",
    "PartidaResult",
    "arrangements",
    "play_hand",
    "play_partida",
    "run_duel",
]
