"""What a server is started with: its database, its limits and its bot pool."""

from __future__ import annotations

import hashlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from platformdirs import user_data_dir

MAX_MESSAGE_BYTES = 4096
"""A client message longer than this is refused and its connection closed."""

MAX_MESSAGES_PER_SECOND = 20
"""A connection that sends more than this in one second is flooding: it is closed."""

FRAME_LIMIT_BYTES = 256 * 1024
"""The WebSocket layer drops frames above this before they are read at all."""

OUTBOX_LIMIT = 256
"""Messages of a mesa's story (moves, hands) waiting for one slow connection before the server
stops queueing them and sends it a fresh ``welcome`` instead; replies (errors, pongs) waiting
for a connection that sends without reading, before it is closed (1013)."""

MIRONES_EVERY_SECONDS = 0.25
"""A mesa tells its connections who watches at most this often: a mirón's arrival or departure
is told at once if the last telling is older, else together with the others at the end of the
interval."""

MIRONES_SHOWN = 10
"""Mirones a mesa's state names (named ones first); ``mirones_count`` says how many watch."""

HELLO_TIMEOUT_SECONDS = 10.0
"""A WebSocket that has not said hello by then is closed: the page says it as soon as it opens,
so only a socket left idle waits that long (``fichaflow serve --hello-timeout``)."""

MINE_EVERY_SECONDS = 6 * 3600
"""``fichaflow serve`` mines its partidas for problemas this often by default (``--mine-problemas-
every``): a partida whose players allow it becomes problemas within hours, at the cost of one
short low-priority process a few times a day."""

MINE_EVERY_MAX_SECONDS = 30 * 24 * 3600
"""The longest interval ``--mine-problemas-every`` takes (30 days)."""

WEBSOCKETS_PER_ADDRESS = 32
"""WebSockets one address may hold open at once: a family's phones and tabs behind one router,
with room to spare (``fichaflow serve --ws-per-address``)."""


def default_database_path() -> Path:
    """The embedded SQLite file in the user's data folder."""
    return Path(user_data_dir("fichaflow", appauthor=False)) / "fichaflow.sqlite3"


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses on its network interfaces (loopback left out), read from
    the interfaces themselves (Linux); empty where that is not possible."""
    try:
        import fcntl
        import socket
        import struct
    except ImportError:
        return []
    found = []
    for _index, interface in socket.if_nameindex():
        if interface == "lo":
            continue
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            try:
                request = struct.pack("256s", interface[:15].encode())
                answer = fcntl.ioctl(probe.fileno(), 0x8915, request)  # SIOCGIFADDR
            except OSError:
                continue
        address = socket.inet_ntoa(answer[20:24])
        if not address.startswith("127."):
            found.append(address)
    return found


TEST_SEED_ENV = "FICHAFLOW_TEST_SEED"
"""For tests only. With this environment variable set, every hand the server deals comes from a
seed made from its value and the numbers of the hand and its partida, and every bot move from one
bot seed, so that a test knows each deal and each bot's answer in advance and can assert exactly
what happens. Without it (always, in real play) deal seeds are secret, from the operating system's
generator. Either way the commitment is published before the deal and the seed revealed at the
end, so test partidas verify like any."""


def _fixed_seed(purpose: str, value: str | None) -> bytes | None:
    if value is None:
        value = os.environ.get(TEST_SEED_ENV)
    return hashlib.sha256(f"{purpose}|{value}".encode()).digest() if value else None


def fixed_deal_seed(value: str | None = None, hand: int = 1, partida: int = 1) -> str | None:
    """The seed (64 hex digits) of hand number ``hand`` of the mesa's partida number ``partida``,
    made from ``value``, by default ``FICHAFLOW_TEST_SEED``'s; None when neither is set: the
    server draws a secret seed. Each hand gets its own deal, the same in every run and at every
    mesa. (The first hand's is the value's own, as it was before later hands had theirs: tests
    are built on it.)"""
    purpose = "deal" if (partida, hand) == (1, 1) else f"deal|{partida}|{hand}"
    seed = _fixed_seed(purpose, value)
    return seed.hex() if seed else None


def bot_seed() -> int:
    """A bot's seed for one move: fixed by ``FICHAFLOW_TEST_SEED`` in tests, else random (a bot's
    seed only breaks its ties; it need not be secret)."""
    seed = _fixed_seed("bot", None)
    return int.from_bytes(seed[:4], "big") if seed else secrets.randbits(32)


@dataclass(frozen=True, slots=True)
class Settings:
    """One server's configuration. ``database_url`` is a SQLAlchemy URL."""

    database_url: str
    public_url: str | None = None
    """The address friends use (``http://192.168.1.20:8000``): join links made from a request
    to this machine's own loopback address point there instead."""
    bot_workers: int = 0  # 0: one per core
    redis_url: str | None = None
    """With a Redis URL, the bots think in ``fichaflow worker`` processes fed through it instead
    of this server's own (``bot_workers`` is then unused)."""
    sqlite_synchronous: str = "FULL"
    http_limit: int = 30
    """Mesas one address may create, and join, per minute (0: no limit); see ``limits``."""
    idle_seconds: float = 900
    hello_timeout: float = HELLO_TIMEOUT_SECONDS
    """Seconds a WebSocket has to say hello (0: no limit)."""
    ws_per_address: int = WEBSOCKETS_PER_ADDRESS
    """WebSockets open at once from one address (0: no limit)."""
    allowed_origins: tuple[str, ...] = ()
    """Other origins (``https://domino.example``) whose pages may use this server; its own
    address, and ``public_url``'s, always may."""
    node: str = "fichaflow"
    """This server's name in the mesas' leases: each server on one database needs its own, the
    same across its restarts (``fichaflow serve`` makes it from the host name and port)."""
    lease_seconds: float = 30.0
    """How long this server's hold on a mesa lasts unless renewed (every third of it)."""
    advertise_url: str | None = None
    """With an address (``http://10.0.0.20:8000``, where this server's peers reach it), this
    server is one of a cluster: what concerns a mesa another server holds is passed on to that
    one (``server/relay.py``), so a balancer may send any client to any server."""
    mine_every: float = 0
    """Seconds between two runs of the problemas miner on this server's partidas (0: none;
    ``fichaflow serve`` gives :data:`MINE_EVERY_SECONDS`); see ``server/miner.py``."""
    """A mesa nobody has been connected to for this long (and where nothing is under way) leaves
    memory; it comes back from the database when someone asks for it."""

    @property
    def workers(self) -> int:
        return self.bot_workers or max(1, os.cpu_count() or 1)
