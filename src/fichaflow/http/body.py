"""A request's JSON body, read within a size limit."""

from __future__ import annotations

import json
from collections.abc import Callable

from starlette.requests import Request

from fichaflow.core.errors import FichaFlowError


def _declared_length(request: Request) -> int | None:
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit():
        return int(declared) if len(declared) <= 18 else 10**18
    return None


async def read_body(request: Request, limit: int, too_big: Callable[[], FichaFlowError]) -> bytes:
    """The body, at most ``limit`` bytes of it: a body declared longer is refused before a byte
    of it is read, and one sent without a length (chunked) as soon as it passes the limit, so
    that a flood of big requests never holds more than ``limit`` bytes of each in memory."""
    declared = _declared_length(request)
    if declared is not None and declared > limit:
        raise too_big()
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise too_big()
    return bytes(body)


async def read_json(
    request: Request,
    limit: int,
    too_big: Callable[[], FichaFlowError],
    not_json: Callable[[], FichaFlowError],
) -> object:
    """The body parsed as JSON (an empty body reads as ``{}``). Each service answers a body over
    ``limit`` bytes, or one that is not JSON, with its own error, made by ``too_big`` and
    ``not_json``; what the JSON must look like is the caller's to check."""
    raw = await read_body(request, limit, too_big)
    try:
        data: object = json.loads(raw or b"{}")
    except ValueError:
        raise not_json() from None
    return data
