"""Imports every bot module so that each registers itself, in ladder order."""

from fichaflow.bots import simple  # noqa: F401

# isort: split
from fichaflow.bots import jugador  # noqa: F401  (after the simple ones: ladder order)

# isort: split
from fichaflow.bots import gallo, omnisciente  # noqa: F401  (the search bots, strongest last)
