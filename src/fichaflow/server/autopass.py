"""Paso automático (a mesa option): the seat to move whose only legal move is to pass.

A pass is forced by the rules when nothing fits and no montón is left to draw from; with the
mesa's ``auto_pass`` on, the service makes that pass for a person after ``auto_pass_ms``, through
the same path as a pass they send (stored, broadcast, replayed). Bots pass by themselves, and a
person who must draw still draws: only the forced pass is taken off the player's hands.
"""

from __future__ import annotations

from fichaflow.core.hand import PASS
from fichaflow.server.mesa import Mesa


def seat_to_pass(mesa: Mesa) -> int | None:
    """The person's seat the server should pass for now, if any."""
    hand = mesa.hand
    if not mesa.options.auto_pass or hand is None or hand.ended:
        return None
    seat = hand.turn
    if mesa.chairs[seat].bot is not None:
        return None
    return seat if hand.legal_moves() == [PASS] else None
