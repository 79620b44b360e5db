"""The ``fichaflow`` command: thin wrappers over the core and the services.

Each command lives in its own module, registers itself on :data:`app`, and is imported only when
it runs (:class:`fichaflow.cli.app.Commands`).
"""

from __future__ import annotations

from fichaflow.cli.app import app, main

__all__ = ["app", "main"]
