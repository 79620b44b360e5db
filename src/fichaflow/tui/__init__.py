"""``fichaflow play``: a person plays a whole partida in the terminal against bots.

The game loop (:mod:`~fichaflow.tui.table`) is kept apart from the screen
(:mod:`~fichaflow.tui.screen`, :mod:`~fichaflow.tui.render`) and from the person's input
(:mod:`~fichaflow.tui.person`), so that a scripted person can play it in tests.
"""
