"""A request's JSON body, read within a size limit, and the one JSON parser of what clients
send (HTTP bodies and WebSocket messages alike)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Final

from starlette.requests import Request

from fichaflow.core.errors import FichaFlowError

MAX_JSON_DEPTH: Final = 32
"""Arrays and objects nested deeper than this are refused (``server.too_deep``). The deepest
thing a client sends, a record inside a Repaso request, nests 6 levels; a body nested a thousand
levels would stop the parser, and later every function that walks it, on Python's stack."""


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _depth(data: object) -> int:
    """How deep arrays and objects nest in ``data``, level by level (no recursion: the point
    is to find what would recurse too deep)."""
    depth = 0
    level: list[list[object] | dict[str, object]] = []
    if isinstance(data, list | dict):
        level.append(data)
    while level:
        depth += 1
        below: list[list[object] | dict[str, object]] = []
        for container in level:
            items = container.values() if isinstance(container, dict) else container
            below += [item for item in items if isinstance(item, list | dict)]
        level = below
    return depth


def parse_json(text: bytes | str) -> object:
    """``text`` as JSON. Raises ``ValueError`` when it is not JSON (``NaN`` and ``Infinity``,
    which are not, included), and ``FichaFlowError("server.too_deep")`` when it nests deeper
    than :data:`MAX_JSON_DEPTH`."""
    try:
        data: object = json.loads(text, parse_constant=_no_constant)
    except RecursionError:  # a thousand levels: the parser itself gave up
        raise FichaFlowError("server.too_deep", limit=MAX_JSON_DEPTH) from None
    if _depth(data) > MAX_JSON_DEPTH:
        raise FichaFlowError("server.too_deep", limit=MAX_JSON_DEPTH)
    return data


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
    ``not_json``; one nested too deep gets ``server.too_deep``. What the JSON must look like is
    the caller's to check."""
    raw = await read_body(request, limit, too_big)
    try:
        return parse_json(raw or b"{}")
    except ValueError:
        raise not_json() from None
