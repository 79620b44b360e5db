"""How often one address may create and join mesas over HTTP: plenty for a family's evening,
too little to fill the database from a script. (The WebSocket has its own flood limit.)

Counted by the address the request comes from; behind a proxy every player shares the proxy's,
so such a server is started with a higher limit, or none (``fichaflow serve --http-limit``)."""

from __future__ import annotations

import math
import time

from limits import RateLimitItemPerMinute, storage, strategies
from starlette.requests import Request

from fichaflow.core.errors import FichaFlowError


class HttpLimits:
    """At most ``per_minute`` creations, and as many joins, per address in any sliding minute;
    0 means no limit."""

    def __init__(self, per_minute: int) -> None:
        self.item = RateLimitItemPerMinute(per_minute) if per_minute > 0 else None
        self._limiter = strategies.MovingWindowRateLimiter(storage.MemoryStorage())

    def check(self, action: str, request: Request, key: str | None = None) -> None:
        """Count one ``action`` ("create", "join") from the request's address (or for ``key``,
        such as the name being signed in to), or refuse it, counting nothing, with a Spanish
        error that says how long to wait."""
        item = self.item
        if item is None:
            return
        if key is None:
            key = request.client.host if request.client is not None else "-"
        if self._limiter.hit(item, action, key):
            return
        reset = self._limiter.get_window_stats(item, action, key).reset_time
        wait = max(1, math.ceil(reset - time.time()))
        raise FichaFlowError("server.too_many", limit=item.amount, wait=wait)
