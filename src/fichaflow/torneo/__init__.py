"""Torneos: a whole tournament of partidas, pure (no I/O), as ``core`` is.

* :mod:`fichaflow.torneo.model`: the torneo and its record (rules, entrants, rounds, the results
  log with its corrections), read from and written to JSON, and the organizer's actions.
* :mod:`fichaflow.torneo.pairing`: round robin (circle method), Swiss, the individual rotation.
* :mod:`fichaflow.torneo.standings`: PG, PP, PF, PC, the difference and the tie-breaks.
* :mod:`fichaflow.torneo.duplicate`: dominó duplicado (one committed seed per round, matchpoints).
* :mod:`fichaflow.torneo.check`: re-checking a whole record (``fichaflow torneo check``).

What each figure means, with worked examples, is in ``docs/torneos.md``. Times are passed in,
never read from a clock; seeds are passed in, never drawn here.
"""
