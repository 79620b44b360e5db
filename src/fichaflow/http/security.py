"""What every answer and every request goes through at the server's edge: the headers that lock
the pages down, and the one rule about origins.

* **Headers.** Each answer says that the page runs only the server's own scripts and styles (a
  Content-Security-Policy with no inline script), may not be framed, must not be sniffed into
  another type, and gives other sites no address (the join link's code is a secret).
* **Origins.** A browser sends its page's origin with every WebSocket and every POST. A request
  from a page of another site is refused before any route sees it: the WebSocket with 403 at the
  handshake, a POST with 403. A POST whose body a form could have sent (a type other than JSON)
  is refused with 415. Clients that send no Origin (the engine's tests, bots, scripts, curl) are
  not browsers acting for somebody, and are served.

Both are plain ASGI middleware, installed by :mod:`fichaflow.app`.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable
from typing import Final
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from fichaflow.core.errors import FichaFlowError
from fichaflow.http.errors import error_response

CROSS_ORIGIN: Final = "server.cross_origin"
JSON_ONLY: Final = "server.json_only"
STATUSES: Final = {CROSS_ORIGIN: 403, JSON_ONLY: 415}
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS: Final = {"http": 80, "https": 443}
WEB_SCHEMES: Final = {"ws": "http", "wss": "https", "http": "http", "https": "https"}

POLICY: Final = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self'",
    "connect-src": "'self'",
    "worker-src": "'self'",
    "manifest-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
"""The pages' Content-Security-Policy: only this server's files; no inline script or style. The
service worker (the anotador's, for working offline) and the web app manifest (installing on a
home screen) are said outright, though ``default-src`` already covers them."""

API_DOCS_POLICY: Final = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "img-src 'self' data: https://fastapi.tiangolo.com; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
"""The OpenAPI page (``/api/docs``) is FastAPI's: its script is inline and its files come from a
CDN. It shows nothing anybody typed, so it alone gets these."""

HEADERS: Final = {
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}
"""``same-origin``, not ``no-referrer``: with ``no-referrer`` a browser sends ``Origin: null``
with its own page's POSTs, and those would be refused as foreign."""


def content_security_policy(styles: Iterable[str] = ()) -> str:
    """The pages' policy; ``styles`` are inline style blocks a page carries (a printable export
    that must stand alone), allowed by their hash and nothing else."""
    hashes = " ".join(f"'sha256-{_digest(style)}'" for style in styles)
    policy = dict(POLICY)
    if hashes:
        policy["style-src"] = f"{policy['style-src']} {hashes}"
    return "; ".join(f"{name} {value}" for name, value in policy.items())


def _digest(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()


def normal_origin(url: str) -> str | None:
    """``scheme://host:port`` with the port written out and the host in lower case; None when
    ``url`` is not an http(s) origin."""
    try:
        parts = urlsplit(url.strip())
        scheme = WEB_SCHEMES.get(parts.scheme.lower())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if scheme is None or not host:
        return None
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}:{port or DEFAULT_PORTS[scheme]}"


def own_origin(scope: Scope) -> str | None:
    """The origin of the request's own address: its scheme (``https`` behind a trusted proxy
    that says so) and its ``Host``."""
    host = Headers(scope=scope).get("host")
    if not host:
        return None
    return normal_origin(f"{scope.get('scheme', 'http')}://{host}")


class SecurityHeaders:
    """Adds :data:`HEADERS` and the Content-Security-Policy to every HTTP answer; an answer that
    brings its own policy (the export, the API docs) keeps it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.policy = content_security_policy()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
                headers.setdefault("Content-Security-Policy", self.policy)
            await send(message)

        await self.app(scope, receive, send_with_headers)


class SameOrigin:
    """Refuses WebSockets and state-changing requests that a page of another site started, and
    POSTs whose body is not JSON. ``allowed`` are other origins whose pages may use the server
    (``fichaflow serve --allowed-origin``)."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = {o for o in map(normal_origin, allowed) if o is not None}

    def foreign(self, scope: Scope) -> bool:
        """True when a browser says the request comes from another site's page."""
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is None:
            return headers.get("sec-fetch-site") == "cross-site"
        said = normal_origin(origin)  # "null" (a sandbox, a file) is nobody's: foreign
        return said is None or (said != own_origin(scope) and said not in self.allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.foreign(scope):
            await _deny_websocket(scope, receive, send)
            return
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            refusal = self._refusal(scope)
            if refusal is not None:
                await error_response(refusal, STATUSES)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _refusal(self, scope: Scope) -> FichaFlowError | None:
        if self.foreign(scope):
            return FichaFlowError(CROSS_ORIGIN)
        kind = Headers(scope=scope).get("content-type")
        if kind is not None and kind.split(";", 1)[0].strip().lower() != "application/json":
            return FichaFlowError(JSON_ONLY, type=kind.split(";", 1)[0].strip()[:60])
        return None


async def _deny_websocket(scope: Scope, receive: Receive, send: Send) -> None:
    """Refuse at the handshake: 403 with the error as JSON where the server can send a body,
    a bare 403 otherwise."""
    socket = WebSocket(scope, receive, send)
    if "websocket.http.response" in scope.get("extensions", {}):
        await socket.send_denial_response(error_response(FichaFlowError(CROSS_ORIGIN), STATUSES))
    else:
        await socket.close(1008)
