"""A refused request as JSON: the error's code and its Spanish and English text, with the HTTP
status its code calls for."""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Final, Literal

from fastapi import Request, Response
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from typing_extensions import TypedDict

from fichaflow.core.errors import FichaFlowError

TOO_MANY: Final = "server.too_many"
"""The code :class:`~fichaflow.http.limits.HttpLimits` refuses with; its answer says when to
come back (``Retry-After``)."""


class ErrorMessage(TypedDict):
    """A refusal: its code, its text in Spanish and English, and the ``ref`` the client put in
    the message that caused it (WebSocket errors; None over HTTP)."""

    type: Literal["error"]
    code: str
    message: str
    message_en: str
    ref: str | int | None


class ErrorAnswer(TypedDict):
    """Every refused HTTP request's body: the error object under ``error``."""

    error: ErrorMessage


def error_body(exc: FichaFlowError, ref: str | int | None = None) -> ErrorMessage:
    """The error as every client reads it; ``ref`` echoes the client's own reference, if any."""
    return {
        "type": "error",
        "code": exc.code,
        "message": exc.message("es"),
        "message_en": exc.message("en"),
        "ref": ref,
    }


def error_response(exc: FichaFlowError, statuses: Mapping[str, int]) -> JSONResponse:
    """``{"error": ...}`` with the status ``statuses`` gives the code (400 when it gives none)."""
    if exc.code == TOO_MANY:
        headers = {"Retry-After": str(exc.params["wait"])}
        return JSONResponse({"error": error_body(exc)}, status_code=429, headers=headers)
    return JSONResponse({"error": error_body(exc)}, status_code=statuses.get(exc.code, 400))


class ErrorRoute(APIRoute):
    """A route that answers a refused request (a ``FichaFlowError``) as :func:`error_response`
    does. A router picks the statuses by subclassing it and setting ``statuses``."""

    statuses: Mapping[str, int] = {}

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        statuses = self.statuses

        async def guarded(request: Request) -> Response:
            try:
                return await handler(request)
            except FichaFlowError as exc:
                return error_response(exc, statuses)

        return guarded
