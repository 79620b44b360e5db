"""``fichaflow serve``: the game server, with its web client, on this machine."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

import click

from fichaflow import i18n
from fichaflow.cli.app import app, checked_redis, fail, lang_of
from fichaflow.core.errors import FichaFlowError
from fichaflow.server.settings import (
    FRAME_LIMIT_BYTES,
    HELLO_TIMEOUT_SECONDS,
    MINE_EVERY_MAX_SECONDS,
    MINE_EVERY_SECONDS,
    WEBSOCKETS_PER_ADDRESS,
    Settings,
    default_database_path,
    network_addresses,
    sqlite_url,
)

SHUTDOWN_GRACE_SECONDS = 3
"""How long a stopping server lets requests still open finish before it cuts them."""

WEBSOCKETS = "websockets-sansio"
"""uvicorn's WebSocket implementation: websockets' sans-I/O protocol runs no tasks of its own per
connection, where uvicorn's default (websockets' legacy API, deprecated upstream) runs several;
the flow control is the same."""


def _check_port(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            fail(FichaFlowError("server.port", host=host, port=port, detail=exc.strerror or exc))


def _check_database(url: str) -> None:
    """Create or migrate the database now, so that a wrong URL is one clear line."""
    from sqlalchemy.exc import SQLAlchemyError

    from fichaflow.storage import make_engine, migrate

    try:
        engine = make_engine(url)
        migrate(engine)
        engine.dispose()
    except (SQLAlchemyError, OSError, ValueError) as exc:
        detail = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        fail(FichaFlowError("server.db", url=_shown(url), detail=detail))


def _shown(url: str) -> str:
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url.split("@")[-1]


def _proxies(text: str) -> list[str]:
    """The trusted proxies' addresses or networks (``10.0.0.1,10.1.0.0/16``), each checked."""
    proxies = [item.strip() for item in text.split(",") if item.strip()]
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            fail(FichaFlowError("server.proxy_address", value=proxy))
    return proxies


def _origins(urls: tuple[str, ...]) -> tuple[str, ...]:
    from fichaflow.http.security import normal_origin

    for url in urls:
        if normal_origin(url) is None or urlsplit(url).path not in ("", "/"):
            fail(FichaFlowError("server.origin", value=url))
    return urls


def _mine_every(text: str) -> int:
    """``--mine-problemas-every``: whole seconds, 0 (never) or 1 to 30 days."""
    value = text.strip()
    if not (value.isascii() and value.isdigit()) or int(value) > MINE_EVERY_MAX_SECONDS:
        fail(FichaFlowError("server.mine_every", value=text[:40], max=MINE_EVERY_MAX_SECONDS))
    return int(value)


def _reachable(host: str) -> str:
    """The address peers reach a server listening on ``host`` at: that one, or for every
    address (``0.0.0.0``) the machine's first network address, else its name."""
    if host not in ("0.0.0.0", "::", ""):
        return f"[{host}]" if ":" in host else host
    lan = network_addresses()
    return lan[0] if lan else socket.gethostname()


@app.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Dirección donde escuchar.")
@click.option("--port", default=8000, show_default=True, type=int, help="Puerto.")
@click.option(
    "--db",
    "db_url",
    default=None,
    metavar="URL",
    help="Base de datos (SQLAlchemy), p. ej. postgresql+psycopg://usuario@host/base. "
    "Por omisión, un archivo SQLite en la carpeta de datos del usuario.",
)
@click.option(
    "--bot-workers", default=0, type=int, help="Procesos para los bots (0: uno por núcleo)."
)
@click.option(
    "--redis",
    "redis_url",
    default=None,
    metavar="URL",
    help="Redis (p. ej. redis://10.0.0.7:6379/0): los bots piensan en los procesos de "
    "«fichaflow worker» que leen esa misma dirección, en esta máquina o en otras, y no en los "
    "de este servidor.",
)
@click.option(
    "--public-url",
    default=None,
    metavar="URL",
    help="La dirección que usan sus amigos (p. ej. http://192.168.1.20:8000) para los enlaces "
    "de las mesas; con --host 0.0.0.0 se toma la de la red de esta máquina.",
)
@click.option(
    "--http-limit",
    default=30,
    show_default=True,
    type=click.IntRange(min=0),
    help="Mesas que una misma dirección puede crear, y unirse, por minuto (0: sin límite). "
    "Detrás de un proxy, nómbrelo con --forwarded-allow-ips: si no, todos comparten su dirección.",
)
@click.option(
    "--forwarded-allow-ips",
    "forwarded",
    default="",
    metavar="IPS",
    help="Proxies o balanceadores de confianza (direcciones o redes, separadas por comas, "
    "p. ej. 10.0.0.5 o 10.0.0.0/24): solo a ellos se les cree X-Forwarded-For y "
    "X-Forwarded-Proto. Por omisión, a ninguno.",
)
@click.option(
    "--allowed-origin",
    "allowed_origins",
    multiple=True,
    metavar="URL",
    help="Otro origen (p. ej. https://domino.example) cuyas páginas pueden usar este servidor; "
    "repítala para varios. Su propia dirección y --public-url siempre pueden.",
)
@click.option(
    "--hello-timeout",
    default=HELLO_TIMEOUT_SECONDS,
    show_default=True,
    type=click.FloatRange(min=0),
    help="Segundos que tiene una conexión WebSocket para saludar (hello) antes de cerrarse "
    "(0: sin límite).",
)
@click.option(
    "--ws-per-address",
    default=WEBSOCKETS_PER_ADDRESS,
    show_default=True,
    type=click.IntRange(min=0),
    help="Conexiones WebSocket abiertas a la vez desde una misma dirección (0: sin límite).",
)
@click.option(
    "--node",
    default=None,
    metavar="NOMBRE",
    help="El nombre de este servidor en los arriendos (leases) de las mesas: cada servidor de "
    "una misma base de datos necesita el suyo. Por omisión, máquina:puerto.",
)
@click.option(
    "--lease-seconds",
    default=30.0,
    show_default=True,
    type=click.FloatRange(min=1),
    help="Cuánto dura el arriendo de una mesa si no se renueva: pasado ese tiempo, si este "
    "servidor se detuvo, otro puede tomarla.",
)
@click.option(
    "--advertise",
    default=None,
    metavar="URL",
    help="La dirección (http://10.0.0.20:8000) en la que los otros servidores de la misma base de "
    "datos llegan a este: el servidor que no tiene una mesa pasa sus peticiones y WebSockets al "
    "que la tiene, y el balanceador puede mandar a cualquiera a cualquier servidor. Por omisión, "
    "con --redis, http://máquina:puerto; sin --redis, ninguna (un servidor solo).",
)
@click.option(
    "--mine-problemas-every",
    "mine_every",
    default=str(MINE_EVERY_SECONDS),
    show_default=True,
    metavar="SEGUNDOS",
    help="Cada cuántos segundos el servidor convierte en problemas las partidas terminadas que "
    "todos sus jugadores permitieron (lo de «fichaflow problemas mine-server», en un proceso "
    "aparte de baja prioridad; en un grupo de servidores, uno a la vez). 0: nunca.",
)
def serve(
    host: str,
    port: int,
    db_url: str | None,
    bot_workers: int,
    redis_url: str | None,
    public_url: str | None,
    http_limit: int,
    forwarded: str,
    allowed_origins: tuple[str, ...],
    hello_timeout: float,
    ws_per_address: int,
    node: str | None,
    lease_seconds: float,
    advertise: str | None,
    mine_every: str,
) -> None:
    """Arranca el servidor: mesas para jugar en el navegador con amigos y bots."""
    import uvicorn

    from fichaflow.app import create_app

    lang = lang_of()

    def say(key: str, **params: object) -> str:
        return i18n.text(f"cli.serve.{key}", lang, **params)

    if db_url is None:
        path = default_database_path()
        db_url, where = sqlite_url(path), str(path)
    else:
        where = _shown(db_url)
    proxies = _proxies(forwarded)
    mine_seconds = _mine_every(mine_every)
    allowed_origins = _origins(allowed_origins)
    if redis_url is not None:
        redis_url = checked_redis(redis_url)
        if bot_workers:
            # With Redis the bots think in `fichaflow worker`: a count here would be ignored.
            fail(FichaFlowError("server.bot_workers_with_redis", count=bot_workers))
    _check_port(host, port)
    _check_database(db_url)
    shown_host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    if ":" in shown_host:
        shown_host = f"[{shown_host}]"
    address = f"http://{shown_host}:{port}/"
    click.echo(say("open", address=address))
    click.echo(say("database", where=where))
    if redis_url is not None:
        from fichaflow.http.jobs import shown_url

        click.echo(say("redis", url=shown_url(redis_url)))
    if public_url is None and host in ("0.0.0.0", "::", ""):
        lan = network_addresses()
        public_url = f"http://{lan[0]}:{port}" if lan else None
    if public_url is not None:
        public_url = public_url.rstrip("/")
        click.echo(say("friends", url=f"{public_url}/"))
    elif host in ("127.0.0.1", "localhost", "::1"):
        click.echo(say("local_only"))
    if advertise is None and redis_url is not None:
        advertise = f"http://{_reachable(host)}:{port}"
    settings = Settings(
        database_url=db_url,
        bot_workers=bot_workers,
        redis_url=redis_url,
        public_url=public_url,
        http_limit=http_limit,
        hello_timeout=hello_timeout,
        ws_per_address=ws_per_address,
        allowed_origins=allowed_origins,
        node=node or f"{socket.gethostname()}:{port}"[:64],
        lease_seconds=lease_seconds,
        advertise_url=advertise.rstrip("/") if advertise else None,
        mine_every=mine_seconds,
    )
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        # X-Forwarded-For and -Proto are believed only from the proxies named (uvicorn alone
        # believes them from 127.0.0.1): the rate limits count the address uvicorn settles on.
        proxy_headers=bool(proxies),
        forwarded_allow_ips=proxies,
        ws=WEBSOCKETS,
        ws_max_size=FRAME_LIMIT_BYTES,
        ws_per_message_deflate=False,  # views are small; compressing them costs the CPU
        # A mirón's long poll waits up to 20 s: on stop, requests still open get this long, then
        # are cut (their pages ask again), so that stopping or restarting a server is quick.
        timeout_graceful_shutdown=SHUTDOWN_GRACE_SECONDS,
        log_level="warning",
    )
