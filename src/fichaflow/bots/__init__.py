"""Bots: players that only ever see a :class:`~fichaflow.core.view.SeatView`.

:mod:`fichaflow.bots.ladder` lists them all and builds one by name.
"""
