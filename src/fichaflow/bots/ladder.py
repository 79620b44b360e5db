"""Imports every bot module so that each registers itself, in ladder order."""

from fichaflow.bots import simple  # noqa: F401
