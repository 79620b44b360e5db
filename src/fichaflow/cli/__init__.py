"""The ``fichaflow`` command: thin wrappers over the core and the services.

Each command lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

from fichaflow.cli import analyze as analyze  # registers ``fichaflow analyze``
from fichaflow.cli import bench as bench  # registers ``fichaflow bench``
from fichaflow.cli import duel as duel  # registers ``fichaflow duel``
from fichaflow.cli import engine as engine  # registers ``fichaflow engine``
from fichaflow.cli import play, replay, score  # noqa: F401  (they register their commands)
from fichaflow.cli import serve as serve  # registers ``fichaflow serve``
from fichaflow.cli import verify as verify  # registers ``fichaflow verify``
from fichaflow.cli.app import app, main

__all__ = ["app", "main"]
