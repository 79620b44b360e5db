"""The rules core: tiles, rules, hands, the partida, scoring, records, seat views and what a seat
can infer from its view. No I/O."""

from fichaflow.core.deal import Deal, shuffle, sorteo
from fichaflow.core.errors import FichaFlowError, IllegalMove, RecordError, RulesError
from fichaflow.core.hand import DRAW, PASS, End, EndKind, Hand, HandEnd, Move, Turn
from fichaflow.core.partida import Partida, PlayedHand, facts_of, first_salida
from fichaflow.core.rules import PRESETS, Rules
from fichaflow.core.scoring import Bonus, HandFacts, HandScore, score_hand
from fichaflow.core.view import PublicTurn, SeatView, hand_view, seat_view

__all__ = [
    "DRAW",
    "PASS",
    "PRESETS",
    "Bonus",
    "Deal",
    "End",
    "EndKind",
    "FichaFlowError",
    "Hand",
    "HandEnd",
    "HandFacts",
    "HandScore",
    "IllegalMove",
    "Move",
    "Partida",
    "PlayedHand",
    "PublicTurn",
    "RecordError",
    "Rules",
    "RulesError",
    "SeatView",
    "Turn",
    "facts_of",
    "first_salida",
    "hand_view",
    "score_hand",
    "seat_view",
    "shuffle",
    "sorteo",
]
