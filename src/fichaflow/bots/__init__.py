"""Bots: players that only ever see a :class:`~fichaflow.core.view.SeatView`."""

from fichaflow.bots.base import BOTS, PLAYER_BOTS, Bot, make_bot, register

__all__ = ["BOTS", "PLAYER_BOTS", "Bot", "make_bot", "register"]
