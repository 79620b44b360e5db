"""Marks shared by the test folders (the ``slow`` marker itself is explained in conftest.py)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest


def slow_except(values: Iterable[Any], quick: Iterable[Any]) -> list[Any]:
    """Parameters for ``parametrize``: the ``quick`` ones run by default, the rest only in the
    slow run (so the default run still covers, say, one preset of each mode)."""
    keep = set(quick)
    return [pytest.param(v, marks=() if v in keep else pytest.mark.slow) for v in values]
