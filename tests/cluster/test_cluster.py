"""A cluster: three ``fichaflow serve`` nodes on one PostgreSQL database and one Redis, one
``fichaflow worker``, and HAProxy in front in round robin with no sticky sessions, from the very
file docs/deploy.md shows (``deploy/haproxy.cfg``). Clients through the balancer, and mirones
sent straight to a node that does not hold their mesa, play bot-filled partidas to the end and
every record verifies; no message names a tile its receiver may not see; and when a mesa's owner
is killed in the middle of a hand another node takes it over within 10 s, its player is back in
his chair through the balancer and the partida ends with every move stored once."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from fichaflow.core import record
from fichaflow.server.fairness import verify_record
from tests.cluster.kit import RedisServer, WorkerProcess, needs_redis
from tests.cluster.test_workers import verified
from tests.server.kit import (
    POSTGRES_ENV,
    Client,
    ServerProcess,
    contiguous,
    create_mesa,
    free_port,
    get_json,
    join,
    postgres_database,
    stored_moves,
    wait_until_serving,
)
from tests.server.test_leaks import check_message

HAPROXY = shutil.which("haproxy")
HAPROXY_CFG = Path(__file__).parents[2] / "deploy" / "haproxy.cfg"
LEASE = "3"  # seconds: a dead owner's mesas wait this long at most for another node
NODES = 3

pytestmark = [
    needs_redis,
    pytest.mark.skipif(
        HAPROXY is None, reason="haproxy is not installed (Debian's package haproxy)"
    ),
]


class Balancer:
    """HAProxy on a free port of 127.0.0.1, in front of the nodes, run from deploy/haproxy.cfg;
    it has what the test kit's clients use of a server (``url``, ``ws_url``, ``http``)."""

    def __init__(self, nodes: list[ServerProcess]) -> None:
        self.port = free_port()
        self.env = {**os.environ, "FICHAFLOW_BIND": f"127.0.0.1:{self.port}"}
        for n, node in enumerate(nodes, 1):
            self.env[f"FICHAFLOW_NODE{n}"] = f"127.0.0.1:{node.port}"
        self.log = Path(tempfile.mkstemp(prefix="fichaflow-haproxy-", suffix=".log")[1])
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def http(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.url, timeout=10)

    def start(self) -> None:
        assert HAPROXY is not None
        command = [HAPROXY, "-db", "-f", str(HAPROXY_CFG)]
        with self.log.open("ab") as sink:
            self.process = subprocess.Popen(
                command, stdout=sink, stderr=subprocess.STDOUT, env=self.env
            )
        if not wait_until_serving(self.url, self.process, 30):
            raise RuntimeError(f"haproxy did not start:\n{self.log.read_text()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
        self.log.unlink(missing_ok=True)


class Cluster:
    def __init__(self, database: str, nodes: list[ServerProcess], balancer: Balancer) -> None:
        self.database, self.nodes, self.balancer = database, nodes, balancer
        self.engine = create_engine(database)

    def owner(self, code: str) -> str | None:
        return self.lease(code)[0]

    def lease(self, code: str) -> tuple[str | None, int]:
        """Who holds mesa ``code`` and with which fencing token, as the database says."""
        with self.engine.connect() as connection:
            row = connection.execute(
                text("SELECT owner, fence FROM mesas WHERE code = :code"), {"code": code}
            ).one()
        return row[0], int(row[1])

    def lease_until(self, code: str) -> int:
        """When mesa ``code``'s lease runs out (Unix milliseconds), as the database says."""
        with self.engine.connect() as connection:
            return int(
                connection.execute(
                    text("SELECT lease_until FROM mesas WHERE code = :code"), {"code": code}
                ).scalar_one()
            )

    def node(self, name: str | None) -> ServerProcess:
        return self.nodes[int(str(name).removeprefix("node")) - 1]

    def other(self, code: str) -> ServerProcess:
        """A live node that does not hold mesa ``code``."""
        owner = self.owner(code)
        return next(
            n
            for n in self.nodes
            if f"node{self.nodes.index(n) + 1}" != owner
            and n.process is not None
            and n.process.poll() is None
        )


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        pytest.skip(f"{POSTGRES_ENV} is not set: a cluster's nodes share a PostgreSQL database")
    with (
        postgres_database(base, "fichaflow_cluster") as database,
        RedisServer() as redis,
        WorkerProcess(redis.url, processes=1) as worker,
    ):
        worker.start()
        nodes = [
            ServerProcess(
                database,
                options=["--redis", redis.url, "--lease-seconds", LEASE, "--node", f"node{n}"],
            )
            for n in range(1, NODES + 1)
        ]
        balancer = Balancer(nodes)
        try:
            # all at once, on the fresh database: one migrates it, the others wait their turn
            with ThreadPoolExecutor(NODES) as starting:
                list(starting.map(lambda node: node.start(timeout=90), nodes))  # (a loaded machine)
            balancer.start()
            worker.wait_ready(redis.client())
            running = Cluster(database, nodes, balancer)
            yield running
            running.engine.dispose()
        finally:
            balancer.stop()
            for node in nodes:
                node.stop()


async def partida(
    cluster: Cluster, rules: dict[str, Any], bots: list[str | None], seed: int
) -> dict[str, Any]:
    """A mesa made through the balancer, seat 0 a person playing through it, the rest bots; a
    mirón connected straight to a node that does not hold the mesa, and a second person who
    joins there too and watches from the queue. Played to the end."""
    lb = cluster.balancer
    created = await create_mesa(lb, rules=rules, seats=bots, name="Host", seat=0)
    code = created["code"]
    elsewhere = cluster.other(code)
    joined = await join(elsewhere, code, "Otra", None)  # passed on to the holder
    assert joined["seat"] is None
    player = Client(lb, code, created["token"], autoplay=True, seed=seed)
    miron = Client(elsewhere, code)
    queued = Client(elsewhere, code, joined["token"])
    for client in (player, miron, queued):
        await client.connect()
    assert player.seat == 0
    await player.send({"type": "start"})
    await asyncio.wait_for(
        asyncio.gather(*(c.partida_over.wait() for c in (player, miron, queued))), 240
    )
    for client in (player, miron, queued):
        await client.close()
    saved = await get_json(elsewhere, f"/api/mesas/{code}/partidas/1/record")
    return {"code": code, "clients": [player, miron, queued], "record": saved}


TABLES: list[tuple[dict[str, Any], list[str | None]]] = [
    ({"preset": "mano_a_mano", "target": 25}, [None, "tirapuntos"]),
    ({"preset": "venezuela", "target": 30}, [None, "tirafichas", "acuestafichas", "tirapuntos"]),
    ({"preset": "mano_a_mano", "target": 25}, [None, "tirafichas"]),
    ({"preset": "venezuela", "target": 30}, [None, "tirapuntos", "tirafichas", "acuestafichas"]),
]


@pytest.mark.slow
def test_clients_on_any_node_play_to_the_end_and_see_nothing_hidden(
    cluster: Cluster, tmp_path: Path
) -> None:
    async def scenario() -> list[dict[str, Any]]:
        jobs = [partida(cluster, rules, bots, 10 * n) for n, (rules, bots) in enumerate(TABLES)]
        return list(await asyncio.gather(*jobs))

    games = asyncio.run(scenario())
    owners = {cluster.owner(game["code"]) for game in games}
    assert len(owners) > 1, "the balancer spread the mesas over the nodes"
    checked = 0
    for game in games:
        asyncio.run(verified(cluster.balancer, game["code"], tmp_path))
        saved = record.loads(json.dumps(game["record"]))
        assert verify_record(saved)
        truth = record.replay(saved)
        for client in game["clients"]:
            assert client.welcomes >= 1 and client.log
            for message in client.seen:
                check_message(message, truth, client.seat)
                checked += 1
        assert contiguous(stored_moves(cluster.database, game["code"]))
    assert checked > 300


@pytest.mark.slow
def test_another_node_takes_over_a_killed_owners_mesa(cluster: Cluster, tmp_path: Path) -> None:
    lb = cluster.balancer
    killed: ServerProcess | None = None

    async def scenario() -> None:
        nonlocal killed
        created = await create_mesa(
            lb, rules={"preset": "mano_a_mano", "target": 60}, seats=[None, "tirapuntos"], seat=0
        )
        code = created["code"]
        player = Client(lb, code, created["token"], autoplay=True, reconnect=True, seed=7)
        await player.connect()
        await player.send({"type": "start"})
        # mid-hand: a few moves of the first hand played
        await asyncio.wait_for(
            _until(lambda: sum(m["type"] == "move" for m in player.log) >= 3), 60
        )
        owner, fence = cluster.lease(code)
        killed = cluster.node(owner)
        # What the player was told of the first hand: each move message, and, for a move made
        # while it was (re)connecting, only its welcome's view (whose history counts every one).
        told = [
            m["move"]["move"]
            for m in player.log
            if m["type"] == "move" and m["view"]["hand_number"] == 1
        ]
        seen = max(
            len(m["view"]["history"])
            for m in player.seen
            if isinstance(m.get("view"), dict) and m["view"].get("hand_number") == 1
        )
        welcomes = player.welcomes
        killed.kill()
        started = time.monotonic()
        held_until = cluster.lease_until(code)  # the dead owner renews it no more
        # Another node holds the mesa within 10 s (the lease is 3 s), and not before the dead
        # owner's lease ran out in the database, though the relays could not reach it.
        taken_at: list[float] = []

        def taken() -> bool:
            if cluster.lease(code)[1] > fence:
                taken_at.append(time.time() * 1000)
                return True
            return False

        await asyncio.wait_for(_until(taken), 10)
        taken_in = time.monotonic() - started
        assert taken_at[0] >= held_until, "a node took the mesa while its lease still held"
        assert cluster.owner(code) not in (None, owner)
        assert taken_in <= 10
        # ...its player, through the balancer, is back in his chair, and the partida ends.
        await asyncio.wait_for(_until(lambda: player.welcomes > welcomes), 20)
        assert player.seat == 0
        await asyncio.wait_for(player.partida_over.wait(), 240)
        await player.close()
        moves = stored_moves(cluster.database, code)
        assert contiguous(moves), "a committed move was lost or stored twice"
        first_hand = [notation for hand, _, notation in moves if hand == 1]
        assert len(first_hand) >= seen, "a move the player saw before the kill was lost"
        stored_in_order = iter(first_hand)
        assert all(move in stored_in_order for move in told), "a move told was lost or reordered"
        await verified(lb, code, tmp_path)

    try:
        asyncio.run(scenario())
    finally:
        if killed is not None:
            with contextlib.suppress(Exception):
                killed.start()


async def _until(condition: Any) -> None:
    while not condition():
        await asyncio.sleep(0.05)


def test_the_haproxy_file_is_valid() -> None:
    assert HAPROXY is not None
    env = {**os.environ, "FICHAFLOW_BIND": "127.0.0.1:1"}
    env |= {f"FICHAFLOW_NODE{n}": f"127.0.0.1:{n + 1}" for n in range(1, NODES + 1)}
    checked = subprocess.run(
        [HAPROXY, "-c", "-f", str(HAPROXY_CFG)], capture_output=True, text=True, env=env
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


class Hinted:
    """The balancer as a mesa's page reaches it once it knows the mesa's server: its WebSocket
    names that server (``/ws?node=…``), and the balancer's ``use-server`` lines read it."""

    def __init__(self, balancer: Balancer, node: str) -> None:
        self.ws_url = f"{balancer.ws_url}?node={node}"


@pytest.mark.slow
def test_a_websocket_that_names_its_server_goes_straight_there(cluster: Cluster) -> None:
    """The join and the welcome name the mesa's server, and a WebSocket through the balancer that
    names it reaches it with no other server in between: with every other server stopped, six
    such connections made at once all get their welcome (in round robin, four of them would wait
    on a stopped server). A name that is not the holder's costs a hop and nothing more."""
    lb = cluster.balancer
    stopped: list[ServerProcess] = []

    async def scenario() -> None:
        created = await create_mesa(lb, rules="dominicana", name="Host", seat=0)
        code = created["code"]
        holder = cluster.owner(code)
        assert holder is not None and created["node"] == holder
        joined = await join(cluster.other(code), code, "Beto", 1)  # passed on to the holder
        assert joined["node"] == holder
        others = [n for n in range(1, NODES + 1) if f"node{n}" != holder]
        stale = Client(Hinted(lb, f"node{others[0]}"), code)
        assert (await stale.connect())["node"] == holder
        await stale.close()
        for n in others:
            node = cluster.nodes[n - 1]
            assert node.process is not None
            node.process.send_signal(signal.SIGSTOP)
            stopped.append(node)
        straight = [Client(Hinted(lb, holder), code) for _ in range(6)]
        welcomes = await asyncio.wait_for(asyncio.gather(*(c.connect() for c in straight)), 30)
        assert [w["node"] for w in welcomes] == [holder] * 6
        for client in straight:
            await client.close()

    try:
        asyncio.run(scenario())
    finally:
        for node in stopped:
            assert node.process is not None
            node.process.send_signal(signal.SIGCONT)


@pytest.mark.slow
def test_de_a_tres_with_the_monton_across_two_nodes(cluster: Cluster, tmp_path: Path) -> None:
    """De a tres, with draws from the montón: the person plays through the balancer, a mirón and
    a queued person are on a node that does not hold the mesa. Every draw is stored once, the
    record verifies, and no message shows anybody a tile of the montón or of another hand."""
    rules = {"preset": "tres", "target": 30}
    game = asyncio.run(partida(cluster, rules, [None, "tirapuntos", "acuestafichas"], 31))
    code = game["code"]
    owner = cluster.owner(code)
    for client in game["clients"][1:]:  # the mirón and the queued one: on another node
        assert f"node{cluster.nodes.index(client.server) + 1}" != owner
    saved = record.loads(json.dumps(game["record"]))
    assert verify_record(saved)
    truth = record.replay(saved)
    moves = stored_moves(cluster.database, code)
    assert contiguous(moves)
    draws = [m for m in moves if m[2] == "draw"]
    assert draws, "nobody drew from the montón in a whole partida de a tres"

    def told_draws(client: Client) -> int:
        return sum(
            m["type"] in ("move", "hand_end") and m["move"]["move"] == "draw" for m in client.log
        )

    # A draw the person chooses is announced to everybody, the mirón on the other node too; a
    # bot's draws are forced and go with the move before them (the views' counts show them), so
    # whether any is announced depends on the person's hands: not asserted.
    person, miron = game["clients"][0], game["clients"][1]
    assert told_draws(miron) == told_draws(person) <= len(draws)
    checked = 0
    for client in game["clients"]:
        for message in client.seen:
            check_message(message, truth, client.seat)
            checked += 1
    assert checked > 50
    asyncio.run(verified(cluster.balancer, code, tmp_path))


@pytest.mark.slow
def test_the_turn_timer_runs_out_on_the_node_that_took_the_mesa_over(cluster: Cluster) -> None:
    """The owner dies while a person's turn runs, its timer set: the node that takes the mesa
    over sets the timer again, and the turn times out there (the timer's bot plays for her)."""
    lb = cluster.balancer
    killed: ServerProcess | None = None

    async def scenario() -> None:
        nonlocal killed
        created = await create_mesa(
            lb,
            rules={"preset": "mano_a_mano", "target": 60},
            seats=[None, "tirafichas"],
            seat=0,
            options={"turn_seconds": 5, "bot_pause_ms": 0},
        )
        code = created["code"]
        ana = Client(lb, code, created["token"], reconnect=True)
        await ana.connect()
        await ana.send({"type": "start"})
        async with asyncio.timeout(30):  # her turn comes, with its deadline
            while True:
                message = await ana.inbox.get()
                kind, deadline = message["type"], message.get("turn_deadline")
                if kind in ("hand_start", "move") and deadline and message["view"]["turn"] == 0:
                    break
        seen = time.monotonic()
        owner, fence = cluster.lease(code)
        killed = cluster.node(owner)
        killed.kill()
        assert time.monotonic() - seen < 4, "the owner was killed before her turn ran out"
        timed = await ana.expect(
            "move", 30, lambda m: m["move"]["seat"] == 0 and m["move"]["timed_out"]
        )
        new_owner, new_fence = cluster.lease(code)
        assert new_owner not in (None, owner) and new_fence > fence
        assert timed["move"]["seat"] == 0
        await ana.close()
        moves = stored_moves(cluster.database, code)
        assert contiguous(moves) and moves, "the timed-out move was stored once"

    try:
        asyncio.run(scenario())
    finally:
        if killed is not None:
            with contextlib.suppress(Exception):
                killed.start(timeout=90)


@pytest.mark.slow
def test_an_owner_stopped_past_its_lease_behind_the_balancer_never_commits_again(
    cluster: Cluster, tmp_path: Path
) -> None:
    """Two people play through the balancer; their mesa's owner is stopped (SIGSTOP) past its
    lease, another node takes the mesa over, and the owner is woken (SIGCONT) with whatever its
    clients sent meanwhile: it cannot commit, its clients are told to connect again (1012), and
    through the balancer the two play on at the new owner to the partida's end, every move
    stored once."""
    lb = cluster.balancer
    stopped: ServerProcess | None = None

    async def scenario() -> None:
        nonlocal stopped
        created = await create_mesa(
            lb, rules={"preset": "mano_a_mano", "target": 25}, seats=[None, None], seat=0
        )
        code = created["code"]
        joined = await join(lb, code, "Beto", 1)
        players = [
            Client(lb, code, token, autoplay=True, reconnect=True, seed=n)
            for n, token in enumerate([created["token"], joined["token"]])
        ]
        for player in players:
            await player.connect()
        await players[0].send({"type": "start"})
        await asyncio.wait_for(
            _until(lambda: sum(m["type"] == "move" for m in players[0].log) >= 3), 60
        )
        owner, fence = cluster.lease(code)
        stopped = cluster.node(owner)
        assert stopped.process is not None
        stopped.process.send_signal(signal.SIGSTOP)
        held_until = cluster.lease_until(code)
        welcomes = [p.welcomes for p in players]
        # Once its lease has run out, a request through the balancer makes another node take it.
        async with lb.http() as http:
            while cluster.lease(code)[1] == fence:
                # Until the balancer's checks mark it down, a request may land on the stopped
                # server, which holds it unanswered: like a browser, ask again.
                with contextlib.suppress(httpx.TimeoutException):
                    await http.get(f"/api/mesas/{code}", timeout=3)
                await asyncio.sleep(0.3)
        assert time.time() * 1000 >= held_until
        new_owner = cluster.owner(code)
        assert new_owner not in (None, owner)
        stored_before = len(stored_moves(cluster.database, code))
        stopped.process.send_signal(signal.SIGCONT)
        stopped = None
        # Its clients are moved on, and the partida ends at the new owner.
        await asyncio.wait_for(
            _until(lambda: all(p.welcomes > w for p, w in zip(players, welcomes, strict=True))),
            60,
        )
        await asyncio.wait_for(asyncio.gather(*(p.partida_over.wait() for p in players)), 240)
        for player in players:
            await player.close()
        assert cluster.lease(code)[0] == new_owner, "the woken owner took its mesa back"
        said = cluster.node(owner).log.read_text()
        assert "another server took its lease" in said or "past this server's memory" in said
        moves = stored_moves(cluster.database, code)
        assert contiguous(moves) and len(moves) > stored_before
        await verified(lb, code, tmp_path)

    try:
        asyncio.run(scenario())
    finally:
        if stopped is not None and stopped.process is not None:
            stopped.process.send_signal(signal.SIGCONT)
