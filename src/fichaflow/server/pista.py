"""The game's side of the Repaso's pista: which seat may ask for one, and what it sees.

The Repaso ranks the moves of a view without knowing mesas or tokens; the game decides whose view
that is, and only gives one where bots play every other seat (a hint against people would be
help from outside the table).
"""

from __future__ import annotations

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.view import SeatView, seat_view
from fichaflow.server.mesa import token_hash
from fichaflow.server.service import TableService


async def pista_view(service: TableService, code: str, token: str) -> SeatView:
    """The view of the seat holding ``token`` at mesa ``code``, when it is that seat's turn and
    bots play every other seat; a Spanish error otherwise."""
    async with service.locked(code) as room:
        entry = service.tokens.get(token_hash(token))
        if entry is None or entry[0] != code:
            raise FichaFlowError("server.bad_token")
        mesa = room.mesa
        seat = mesa.seat_of(entry[1])
        if seat is None:
            raise FichaFlowError("server.not_seated")
        for other, chair in enumerate(mesa.chairs):
            if other != seat and (chair.bot is None or chair.person is not None):
                raise FichaFlowError("review.pista_bots")
        hand = mesa.hand
        if mesa.partida is None or hand is None or hand.turn != seat:
            raise FichaFlowError("review.pista_turn")
        view = seat_view(mesa.partida, seat)
    assert view is not None
    return view
