"""A request's JSON body, read within a size limit."""

from __future__ import annotations

import json
from collections.abc import Callable

from starlette.requests import Request

from fichaflow.core.errors import FichaFlowError


async def read_json(
    request: Request,
    limit: int,
    too_big: Callable[[], FichaFlowError],
    not_json: Callable[[], FichaFlowError],
) -> object:
    """The body parsed as JSON (an empty body reads as ``{}``). Each service answers a body over
    ``limit`` bytes, or one that is not JSON, with its own error, made by ``too_big`` and
    ``not_json``; what the JSON must look like is the caller's to check."""
    raw = await request.body()
    if len(raw) > limit:
        raise too_big()
    try:
        data: object = json.loads(raw or b"{}")
    except ValueError:
        raise not_json() from None
    return data
