"""Cluster routing: a server asked for a mesa another server holds passes the request on to
that server, so that a balancer may send any client to any server (round robin, no sticky
sessions).

A WebSocket whose hello names a mesa held elsewhere is piped, frame by frame both ways, to a
WebSocket of its own to the holder, which sees an ordinary connection with the client's own
hello and token: it sends only what that seat (or a mirón) may see, and the relay never reads a
frame (no tile crosses between servers that its receiver may not see). An HTTP request for such
a mesa (its state, a join, a record) is sent on to the holder and its answer sent back.

The holder's address comes from the ``nodes`` table (``--advertise``), and only while its lease
has not run out in the database: a holder that does not answer is never taken for dead before
then (the fencing token stays the one authority). The client then hears ``server.elsewhere`` (or,
on a WebSocket already piped, ``server.moved`` and 1012) and tries again; once the lease has run
out, the server it reaches takes the mesa and loads it from the database. A request or WebSocket
that was itself passed on carries ``RELAYED`` and is never passed on again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import urllib.request
from collections.abc import Mapping
from http.cookiejar import Cookie, DefaultCookiePolicy
from typing import Any, Final

import httpx
import websockets
from fastapi import Request, WebSocket
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.websockets import WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect

from fichaflow.core.errors import FichaFlowError
from fichaflow.http import ErrorRoute, error_response
from fichaflow.server import nodes, wire
from fichaflow.server import protocol as p
from fichaflow.server.hub import CLOSE_RECONNECT, Connection
from fichaflow.server.storage import Storage, short_error

log = logging.getLogger(__name__)

RELAYED: Final = "x-fichaflow-relayed"
"""The header on what one server passes on to another: never passed on again."""
CONNECT_SECONDS: Final = 5.0
"""How long a relay waits for the holder to answer before the client hears ``elsewhere``."""
CREDENTIALS: Final = ("cookie", "x-csrf-token")
"""The request headers a signed-in player is known by (the session cookie and its CSRF token):
passed on as the client sent them, and the holder signs the player in from them itself, against
the shared database, exactly as it would the client's own request. No server ever tells another
who a player is: nothing a client could forge is believed."""
PASSED_HEADERS: Final = ("content-type", "accept-language", "user-agent", *CREDENTIALS)
"""The request headers passed on with an HTTP request (the rest are the hop's own)."""
CLEAN_CLOSES: Final = {1000, 1001, 1008, 1009, 1011, 1012, 1013}
"""Close codes the holder sends on purpose: passed on to the client as they came."""


class Relay:
    """This server's side of cluster routing: where it says it is, and the passing on."""

    def __init__(self, storage: Storage, url: str) -> None:
        self.storage = storage
        self.url = url.rstrip("/")
        """This server's address for its peers (``--advertise``)."""
        self._http: httpx.AsyncClient | None = None
        """One client for the requests passed on, keeping its connections to the other servers
        open (a connection each would cost a TCP handshake and a client's making per request)."""

    def http(self) -> httpx.AsyncClient:
        if self._http is None:
            self._http = httpx.AsyncClient(timeout=CONNECT_SECONDS)
            # It serves every client: it keeps no cookie (each request carries its own).
            self._http.cookies.jar.set_policy(_NoCookies())
        return self._http

    async def keep_registered(self) -> None:
        """Say where this server is, now and every third of a lease, for its whole life (its
        end closes the connections kept to the other servers)."""
        try:
            while True:
                try:
                    await self.storage.run(
                        nodes.register, self.storage.engine, self.storage.node, self.url
                    )
                except Exception as exc:
                    log.error("could not say where this server is: %s", short_error(exc))
                await asyncio.sleep(self.storage.lease_seconds / 3)
        finally:
            if self._http is not None:
                http, self._http = self._http, None
                with contextlib.suppress(Exception):
                    await asyncio.shield(http.aclose())

    async def holder(self, code: str) -> str | None:
        """The address of the server that holds mesa ``code`` (None: none other, or unknown)."""
        try:
            return await self.storage.run(
                nodes.holder, self.storage.engine, code, self.storage.node
            )
        except Exception as exc:
            log.error("could not find who holds mesa %s: %s", code, short_error(exc))
            return None

    # -- WebSocket -------------------------------------------------------------------------

    async def pipe(self, ws: WebSocket, conn: Connection, hello: str, code: str) -> bool:
        """Pipe the client's WebSocket to the holder of mesa ``code``, starting with its
        ``hello``, until either side goes; False (nothing done) when the holder is unknown or
        does not answer."""
        if RELAYED in ws.headers:
            return False
        url = await self.holder(code)
        if url is None:
            return False
        headers = {RELAYED: "1", "x-forwarded-for": ws.client.host if ws.client else "-"}
        try:
            upstream = await connect(
                _ws_url(url),
                additional_headers=headers,
                open_timeout=CONNECT_SECONDS,
                max_size=None,  # the holder's own limits apply to what it sends
                compression=None,
            )
        except (OSError, TimeoutError, websockets.InvalidHandshake, websockets.InvalidURI) as exc:
            log.warning("mesa %s: its server at %s does not answer: %s", code, url, exc)
            return False
        conn.greeted = True  # (the holder keeps the hello deadline from here on)
        try:
            await upstream.send(hello)
            down = asyncio.get_running_loop().create_task(_down(upstream, ws))
            up = asyncio.get_running_loop().create_task(_up(ws, upstream))
            done, _ = await asyncio.wait({down, up}, return_when=asyncio.FIRST_COMPLETED)
            up.cancel()
            down.cancel()
            if down in done and not down.cancelled() and down.exception() is None:
                close = down.result()
                if close is None:  # the holder went without a word (killed, or cut off)
                    error = FichaFlowError("server.moved")
                    conn.send(wire.error(error))
                    conn.close(CLOSE_RECONNECT, error.code)
                else:
                    conn.close(*close)
        except websockets.ConnectionClosed:
            conn.close(CLOSE_RECONNECT, "server.moved")
        finally:
            with contextlib.suppress(Exception):
                await upstream.close()
        return True

    # -- HTTP ------------------------------------------------------------------------------

    @staticmethod
    def credentials(request: Request) -> dict[str, str]:
        """The request's :data:`CREDENTIALS` and its client's address, for a join made for it
        at another server (which then counts the join against the asker's address, as for a
        request :meth:`forward` passes on, not against this server's)."""
        found = {k: v for k, v in request.headers.items() if k in CREDENTIALS}
        found["x-forwarded-for"] = request.client.host if request.client else "-"
        return found

    async def join(
        self, code: str, request: p.Join, credentials: Mapping[str, str] | None = None
    ) -> wire.Joined | None:
        """The join at mesa ``code`` made at its holder, as a link's join passed on would be
        (for «Jugar ya»: the seat's token then works through any server), with the asker's
        ``credentials`` (:meth:`credentials`: a signed-in player sits down as their account);
        None when the holder is unknown, does not answer, or refuses (the chair taken, the
        partida started)."""
        url = await self.holder(code)
        if url is None:
            return None
        body = request.model_dump(mode="json")
        passed = (*CREDENTIALS, "x-forwarded-for")
        headers = {k: v for k, v in (credentials or {}).items() if k in passed}
        headers[RELAYED] = "1"
        try:
            answer = await self.http().post(
                f"{url}/api/mesas/{code}/join", json=body, headers=headers
            )
        except (httpx.HTTPError, OSError) as exc:
            log.warning("mesa %s: its server at %s does not answer: %s", code, url, exc)
            return None
        if answer.status_code != 201:
            log.info("mesa %s: its server refused a «Jugar ya» join: %s", code, answer.text)
            return None
        try:
            joined: wire.Joined = answer.json()
        except ValueError:
            return None
        return joined

    def route_class(self, base: type[ErrorRoute]) -> type[APIRoute]:
        """``base`` with one more step: an endpoint refused with ``server.elsewhere`` is sent on
        to the mesa's holder, whose answer is the answer."""
        relay = self

        class Routed(base):  # type: ignore[valid-type,misc]
            def get_route_handler(self) -> Any:
                handler = APIRoute.get_route_handler(self)
                statuses = self.statuses

                async def routed(request: Request) -> Response:
                    try:
                        return await handler(request)
                    except FichaFlowError as exc:
                        if exc.code == "server.elsewhere":
                            answer = await relay.forward(request)
                            if answer is not None:
                                return answer
                        return error_response(exc, statuses)

                return routed

        return Routed

    async def forward(self, request: Request) -> Response | None:
        """The holder's answer to ``request`` (None: not to be passed on, or no answer)."""
        code = request.path_params.get("code")
        if RELAYED in request.headers or not isinstance(code, str):
            return None
        url = await self.holder(code)
        if url is None:
            return None
        headers = {k: v for k, v in request.headers.items() if k in PASSED_HEADERS}
        headers[RELAYED] = "1"
        headers["x-forwarded-for"] = request.client.host if request.client else "-"
        target = url + request.url.path + (f"?{request.url.query}" if request.url.query else "")
        try:
            body = await request.body()
            answer = await self.http().request(
                request.method, target, content=body, headers=headers
            )
        except (httpx.HTTPError, OSError) as exc:
            log.warning("mesa %s: its server at %s does not answer: %s", code, url, exc)
            return None
        kept = {k: v for k, v in answer.headers.items() if k in ("content-type", "retry-after")}
        return Response(answer.content, answer.status_code, kept)


class _NoCookies(DefaultCookiePolicy):
    """A cookie jar's policy that keeps none."""

    def set_ok(self, cookie: Cookie, request: urllib.request.Request) -> bool:
        return False


def _ws_url(url: str) -> str:
    scheme, rest = url.split("://", 1)
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws"


async def _down(upstream: ClientConnection, ws: WebSocket) -> tuple[int, str] | None:
    """The holder's frames to the client, as they come (a client slow to read slows the pipe,
    and the holder's own outbox then keeps the latest states for it); returns the holder's
    close (code, reason), or None when it went without one."""
    try:
        async for frame in upstream:
            if isinstance(frame, str):
                await ws.send_text(frame)
            else:
                await ws.send_bytes(frame)
    except websockets.ConnectionClosed:
        pass
    received = upstream.protocol.close_rcvd
    if received is None:
        return None
    code = received.code if received.code in CLEAN_CLOSES else 1000
    return code, received.reason


async def _up(ws: WebSocket, upstream: ClientConnection) -> None:
    """The client's frames to the holder, as they come, until the client goes."""
    with contextlib.suppress(WebSocketDisconnect, websockets.ConnectionClosed):
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            await upstream.send(text if text is not None else message.get("bytes") or b"")
