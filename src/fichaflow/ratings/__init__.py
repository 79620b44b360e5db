"""Ratings: how strong a player is at each mode, people and bots on one scale.

A rating is openskill's Plackett–Luce estimate (a mean ``mu`` and an uncertainty ``sigma``), one
per mode (parejas, mano a mano, de a tres), updated after each rated partida from who finished
where. It is shown as a whole number on a scale that reads like the chess ratings players know
(:func:`shown`): a new player starts at 1500, and 400 points between two settled players mean
about ten partidas to one. A rating is *provisional* while its uncertainty is large (the first
ten or so partidas): it moves fast and stays off the leaderboards.

Bots are rated on the same scale, but their ratings are fixed (:mod:`fichaflow.ratings.bots`):
they were measured once, in duplicate duels, by the procedure in ``bench/rate_bots.py``, so
that «gallo ≈ 1850» means the same to every player, and beating a bot moves only the person.

Pure: no I/O; the services store ratings and call :func:`rate_partida`.
"""

from fichaflow.ratings.model import (
    NEW_PLAYER,
    PROVISIONAL_SIGMA,
    Rating,
    Side,
    rate_partida,
    shown,
    win_chance,
)

__all__ = [
    "NEW_PLAYER",
    "PROVISIONAL_SIGMA",
    "Rating",
    "Side",
    "rate_partida",
    "shown",
    "win_chance",
]
