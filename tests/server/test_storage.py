"""The database is the truth: a mesa rebuilt from what was committed is the mesa that was
played, at any point of any partida under any preset (a property test)."""

from __future__ import annotations

import asyncio
import random
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import inspect, select, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from fichaflow.core.errors import FichaFlowError
from fichaflow.core.rules import PRESETS, Rules
from fichaflow.server import changes as ch
from fichaflow.server import storage, wire
from fichaflow.server.botpool import LocalBotPool
from fichaflow.server.fairness import new_seed
from fichaflow.server.mesa import Mesa
from fichaflow.server.models import MesaRow, MoveRow
from fichaflow.server.protocol import CreateMesa, Join, MesaOptions
from fichaflow.server.service import TableService
from fichaflow.storage import make_engine, migrate, reading

BOTS = ["tirafichas", "tirapuntos", "acuestafichas"]


def same_mesa(live: Mesa, stored: Mesa) -> None:
    assert stored.rules == live.rules and stored.options == live.options
    assert stored.chairs == live.chairs and stored.queue == live.queue
    assert stored.people == live.people
    assert stored.hands == live.hands and stored.status == live.status
    for seat in [None, *range(live.rules.seats)]:
        assert wire.view(stored, seat) == wire.view(live, seat)
    assert wire.partida_summary(stored) == wire.partida_summary(live)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    sorteo=st.booleans(),
    seed=st.integers(0, 2**32),
    checkpoints=st.lists(st.integers(0, 400), min_size=1, max_size=4),
)
def test_a_mesa_rebuilt_from_the_database_is_the_mesa_played(
    preset: str, sorteo: bool, seed: int, checkpoints: list[int]
) -> None:
    rng = random.Random(seed)
    rules = Rules.make(preset, target=40, **({"first_lead": "sorteo"} if sorteo else {}))
    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'db.sqlite3'}")
        migrate(engine)
        plan: list[str | None] = [rng.choice(BOTS) for _ in range(rules.seats)]
        plan[0] = None
        mesa, host, _, changes = Mesa.create("mesa", rules, MesaOptions(), plan, "Ana", 0)
        storage.commit(engine, changes)
        _person, _token, joined = mesa.join("Beto", None)  # estar parado
        storage.commit(engine, joined)
        storage.commit(engine, mesa.start())
        steps = 0
        for checkpoint in sorted(checkpoints):
            while steps < checkpoint:
                steps += 1
                if mesa.status == "hand_over":
                    storage.commit(engine, mesa.deal_hand(new_seed()))
                elif mesa.status == "playing":
                    hand = mesa.hand
                    assert hand is not None
                    move = rng.choice(hand.legal_moves())
                    _result, played = mesa.play(hand.turn, move)
                    storage.commit(engine, played)
                else:
                    break
            snapshot = storage.load_mesa(engine, "mesa")
            assert snapshot is not None
            same_mesa(mesa, Mesa.restore(snapshot))
        engine.dispose()
    assert host.is_host


def test_migrations_build_a_fresh_database_and_run_again_harmlessly(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'new' / 'fichaflow.sqlite3'}")
    migrate(engine)
    migrate(engine)
    tables = set(inspect(engine).get_table_names())
    assert {"mesas", "people", "seats", "partidas", "hands", "moves", "alembic_version"} <= tables
    assert storage.load_mesa(engine, "nada") is None
    engine.dispose()


def test_a_sqlite_transaction_that_reads_then_writes_outlasts_a_write_in_between(
    tmp_path: Path,
) -> None:
    """Each of the server's transactions reads, then writes (a lease renewal, a mesa kept on an
    account, a move checked against its fence). Another connection writing in between used to
    make the second half fail at once with «database is locked» (a sign-up's mesa answered
    HTTP 500): now the other writer waits its turn, and both land."""
    engine = make_engine(f"sqlite:///{tmp_path / 'fichaflow.sqlite3'}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE notes (who TEXT)"))
    failures: list[BaseException] = []

    def other_writer() -> None:
        try:
            with engine.begin() as connection:
                connection.execute(text("INSERT INTO notes VALUES ('other')"))
        except BaseException as exc:  # (reported below, on the test's thread)
            failures.append(exc)

    with engine.begin() as first:
        assert first.execute(text("SELECT count(*) FROM notes")).scalar() == 0
        writer = threading.Thread(target=other_writer)
        writer.start()
        writer.join(0.3)  # long enough for the other write to land in between, if it could
        first.execute(text("INSERT INTO notes VALUES ('first')"))
    writer.join(10)
    assert failures == []
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT who FROM notes ORDER BY rowid")).scalars().all()
    assert rows == ["first", "other"]
    engine.dispose()


def test_a_sqlite_read_does_not_hold_up_a_write(tmp_path: Path) -> None:
    """A read (an export, a torneo's standings, a session's cookie) took the write lock like any
    transaction, and a move's commit waited for it to end. A read now holds no lock: a write
    lands while the read is still open, and the read keeps seeing the database as it began."""
    engine = make_engine(f"sqlite:///{tmp_path / 'fichaflow.sqlite3'}")
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE notes (who TEXT)"))
    landed = threading.Event()
    failures: list[BaseException] = []

    def writer() -> None:
        try:
            with engine.begin() as connection:
                connection.execute(text("INSERT INTO notes VALUES ('move')"))
            landed.set()
        except BaseException as exc:  # (reported below, on the test's thread)
            failures.append(exc)

    with reading(engine) as read:
        assert read.execute(text("SELECT count(*) FROM notes")).scalar() == 0
        thread = threading.Thread(target=writer)
        thread.start()
        # The read stays open until the write lands, or for longer than the busy timeout (5 s)
        # after which a write held up by it fails with «database is locked».
        assert landed.wait(8), failures
        assert read.execute(text("SELECT count(*) FROM notes")).scalar() == 0
    thread.join(10)
    assert failures == []
    with reading(engine) as read:
        assert read.execute(text("SELECT who FROM notes")).scalars().all() == ["move"]
    engine.dispose()


def test_a_group_commit_fails_only_the_action_that_fails(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'group.sqlite3'}")
    migrate(engine)
    storage.commit(engine, [ch.NewMesa("m", {"preset": "venezuela"}, {})])
    writer = storage.Writer(engine)
    move = ch.NewMove("m", 1, 1, 1, 0, "6-6", False)
    first = writer.submit([move, ch.SetVersion("m", 1, 0)])
    first.result(10)
    again = writer.submit([ch.SetVersion("m", 2, 0), move])  # the same move twice: refused
    other = writer.submit([ch.NewMove("m", 1, 1, 2, 1, "6-5", False), ch.SetVersion("m", 2, 0)])
    with pytest.raises(IntegrityError):
        again.result(10)
    other.result(10)
    writer.close()
    with engine.connect() as connection:
        version = connection.execute(text("SELECT version FROM mesas")).scalar()
        moves = connection.execute(text("SELECT notation FROM moves ORDER BY number")).all()
    assert version == 2  # the refused action's own version change was rolled back with it
    assert [m[0] for m in moves] == ["6-6", "6-5"]
    engine.dispose()


def test_the_event_loop_hears_of_a_group_at_once_and_each_action_of_its_own_fate(
    tmp_path: Path,
) -> None:
    """Actions committed from the event loop: those waiting together are told together (one
    wake-up of the loop a group, not one an action), each with its own outcome: one the
    database refuses fails alone, and one whose caller gave up harms nobody."""
    engine = make_engine(f"sqlite:///{tmp_path / 'loop.sqlite3'}")
    migrate(engine)
    codes = [f"m{n}" for n in range(40)]
    for code in codes:
        storage.commit(engine, [ch.NewMesa(code, {"preset": "venezuela"}, {})])
    writer = storage.Writer(engine)

    def action(code: str, number: int = 1) -> list[ch.Change]:
        return [ch.NewMove(code, 1, 1, number, 0, "6-6", False), ch.SetVersion(code, 1, 0)]

    async def scenario() -> tuple[list[BaseException | None], int]:
        loop = asyncio.get_running_loop()
        wakeups = 0
        threadsafe = loop.call_soon_threadsafe

        def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal wakeups
            wakeups += 1
            return threadsafe(*args, **kwargs)

        loop.call_soon_threadsafe = counted  # type: ignore[method-assign, assignment]
        await writer.commit(action("m0"))
        wakeups = 0
        given_up = asyncio.ensure_future(writer.commit(action("m1")))
        await asyncio.sleep(0)  # (sent: it waits for its outcome)
        given_up.cancel()
        actions = [writer.commit(action(code)) for code in codes[2:]]
        actions.append(writer.commit(action("m0")))  # its move again: refused
        outcomes = await asyncio.gather(*actions, return_exceptions=True)
        return list(outcomes), wakeups

    outcomes, wakeups = asyncio.run(scenario())
    writer.close()
    assert outcomes[:-1] == [None] * (len(codes) - 2)
    assert isinstance(outcomes[-1], IntegrityError)
    assert 1 <= wakeups <= 5, f"{wakeups} wake-ups for {len(codes)} actions sent together"
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT mesa FROM moves")).scalars().all()
    assert sorted(stored) == sorted(codes)  # m1's too: given up on, still committed once
    engine.dispose()


def test_an_action_the_database_refuses_changes_nothing(tmp_path: Path) -> None:
    """If a move cannot be committed, the mesa goes back to what was last committed: nobody is
    told of the move, the player gets server.storage, and the position is the one before."""

    async def scenario() -> None:
        db = storage.Storage(f"sqlite:///{tmp_path / 'refuse.sqlite3'}")
        await db.run(migrate, db.engine)
        service = TableService(db, LocalBotPool(1))
        request = CreateMesa(rules="mano_a_mano", seats=[None, None], name="Ana", seat=0)
        created = await service.create(request, "http://127.0.0.1")
        await service.join(created["code"], Join(name="Beto", seat=1))
        room = service.rooms[created["code"]]
        async with room.lock:
            await service._commit(room, room.mesa.start())
        before = {seat: wire.view(room.mesa, seat) for seat in (None, 0, 1)}
        version = room.mesa.version
        with db.engine.begin() as connection:
            connection.exec_driver_sql(
                "CREATE TRIGGER refuse BEFORE INSERT ON moves "
                "BEGIN SELECT RAISE(ABORT, 'no space left'); END"
            )
        hand = room.mesa.hand
        assert hand is not None
        async with room.lock:
            with pytest.raises(FichaFlowError) as refused:
                await service._play(room, hand.turn, hand.legal_moves()[0])
        assert refused.value.code == "server.storage"
        assert "no cambió nada" in refused.value.message("es")
        assert room.mesa.version == version
        assert {seat: wire.view(room.mesa, seat) for seat in (None, 0, 1)} == before
        db.close()

    asyncio.run(scenario())


@pytest.mark.parametrize("one_statement", [True, False], ids=["one-statement", "row-by-row"])
def test_a_large_group_is_written_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, one_statement: bool
) -> None:
    """The writer's group, with more mesas than one statement takes (SQLite's single statements,
    or a row at a time where SQLite is older): every move stored as played, each mesa's version
    set to its last action's and its lease renewed; with one mesa behind, nothing of the group."""
    monkeypatch.setattr(storage, "SQLITE_ONE_STATEMENT", one_statement)
    engine = make_engine(f"sqlite:///{tmp_path / 'group.sqlite3'}")
    migrate(engine)
    codes = [f"m{n:03}" for n in range(250)]
    storage.commit(engine, [ch.NewMesa(code, {"preset": "venezuela"}, {}) for code in codes])

    def group(first: int, fences: dict[str, int]) -> list[ch.Change]:
        changes: list[ch.Change] = []
        for seat, code in enumerate(codes):
            for number in (first, first + 1):  # two actions of each mesa in the group
                move = ch.NewMove(code, 1, 1, number, seat % 4, f"{number}-{seat % 7}", seat == 7)
                changes += [move, ch.SetVersion(code, number, fences.get(code, 0))]
        return changes

    before = time.time() * 1000
    with engine.begin() as connection:
        storage.write_many(connection, group(1, {}))
    with pytest.raises(storage.StaleMesa), engine.begin() as connection:
        storage.write_many(connection, group(3, {"m180": 1}))  # m180's lease was taken since
    with engine.connect() as connection:
        moves = connection.execute(
            select(MoveRow.mesa, MoveRow.number, MoveRow.seat, MoveRow.notation, MoveRow.timed_out)
        ).all()
        stamps = connection.execute(select(MoveRow.created_at)).scalars().all()
        mesas = connection.execute(select(MesaRow.version, MesaRow.lease_until)).all()
    expected = {
        (code, number, seat % 4, f"{number}-{seat % 7}", seat == 7)
        for seat, code in enumerate(codes)
        for number in (1, 2)
    }
    assert {tuple(m) for m in moves} == expected and len(moves) == len(expected)
    assert all(abs(s.timestamp() * 1000 - before) < 60_000 for s in stamps)
    assert {version for version, _ in mesas} == {2}
    assert all(until >= before + 29_000 for _, until in mesas)
    engine.dispose()


def test_a_commit_without_the_lease_or_behind_the_database_writes_nothing(tmp_path: Path) -> None:
    """The database's guarantee for several servers: a commit whose fencing token is not the
    mesa's (another server took the lease since), or whose version is behind the stored one, is
    refused with everything it carried, in a group or alone, and the others in its group commit."""
    engine = make_engine(f"sqlite:///{tmp_path / 'fence.sqlite3'}")
    migrate(engine)
    for code in ("a", "b"):
        storage.commit(engine, [ch.NewMesa(code, {"preset": "venezuela"}, {})])
    taken = storage.take_mesa(engine, "a", "server-1", 30)
    assert taken is not None and taken[1] == 1
    with pytest.raises(storage.MesaElsewhere):
        storage.take_mesa(engine, "a", "server-2", 30)
    writer = storage.Writer(engine)
    stale = writer.submit([ch.NewMove("a", 1, 1, 1, 0, "6-6", False), ch.SetVersion("a", 1, 0)])
    fine = writer.submit([ch.NewMove("b", 1, 1, 1, 0, "6-6", False), ch.SetVersion("b", 1, 0)])
    behind = writer.submit([ch.NewMove("b", 1, 1, 2, 1, "6-5", False), ch.SetVersion("b", 1, 0)])
    with pytest.raises(storage.StaleMesa):
        stale.result(10)
    fine.result(10)
    with pytest.raises(storage.StaleMesa):
        behind.result(10)
    held = writer.submit([ch.NewMove("a", 1, 1, 1, 0, "6-6", False), ch.SetVersion("a", 1, 1)])
    held.result(10)
    writer.close()
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT mesa, number FROM moves ORDER BY mesa")).all()
    assert [tuple(r) for r in rows] == [("a", 1), ("b", 1)]
    assert storage.renew_leases(engine, "server-1", 30) == {"a": 1}
    storage.release_leases(engine, "server-1", {"a": 1})
    assert storage.take_mesa(engine, "a", "server-2", 30) is not None  # free again: token 2
    engine.dispose()


@pytest.mark.parametrize("call_at", [0, 1, 7, 25, 60])
def test_a_time_call_committed_is_replayed_where_it_came(tmp_path: Path, call_at: int) -> None:
    """A mesa played by time: its partida's start and the time call are stored, and the mesa
    rebuilt from the database has the same clock, the call at the same place and the same end
    (the call ``call_at`` steps into the partida: inside a hand, or between two)."""
    rng = random.Random(call_at)
    engine = make_engine(f"sqlite:///{tmp_path / 'time.sqlite3'}")
    migrate(engine)
    rules = Rules.make("venezuela", target=500)
    options = MesaOptions(time_minutes=40, parados=False)
    mesa, _host, _, changes = Mesa.create("mesa", rules, options, [None, *BOTS], "Ana", 0)
    storage.commit(engine, changes)
    storage.commit(engine, mesa.start())
    steps = 0
    while mesa.playing:
        if steps == call_at:
            _result, called = mesa.call_time()
            storage.commit(engine, called)
            snapshot = storage.load_mesa(engine, "mesa")
            assert snapshot is not None
            back = Mesa.restore(snapshot)
            assert mesa.partida is not None and back.partida is not None
            assert back.partida.time_up == mesa.partida.time_up is not None
            assert back.time_ends is not None and mesa.time_ends is not None
            assert abs(back.time_ends - mesa.time_ends) < 1
            same_mesa(mesa, back)
        steps += 1
        if mesa.status == "hand_over":
            storage.commit(engine, mesa.deal_hand(new_seed()))
        else:
            hand = mesa.hand
            assert hand is not None
            _result, played = mesa.play(hand.turn, rng.choice(hand.legal_moves()))
            storage.commit(engine, played)
    assert mesa.partida is not None and mesa.partida.time_up is not None
    snapshot = storage.load_mesa(engine, "mesa")
    assert snapshot is not None
    back = Mesa.restore(snapshot)
    same_mesa(mesa, back)
    assert back.status == "partida_over" and back.partida is not None
    assert back.partida.winner == mesa.partida.winner
    assert max(mesa.partida.scores) < rules.target
    engine.dispose()


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_write_inside_a_read_is_refused_and_changes_nothing(
    database: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """A read takes no lock on SQLite, so a write slipped into one would fail whenever another
    connection wrote first: the database refuses it every time, the read's connection goes back
    to the pool able to write again, and what was there stays."""
    if database == "sqlite":
        engine = make_engine(f"sqlite:///{tmp_path / 'fichaflow.sqlite3'}")
    else:
        engine = make_engine(request.getfixturevalue("postgres_url"))
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE notes (who TEXT)"))
        connection.execute(text("INSERT INTO notes VALUES ('first')"))
    for _ in range(2):  # the same pooled connection, read-only, then able to write, twice
        with pytest.raises(DBAPIError), reading(engine) as read:
            assert "first" in read.execute(text("SELECT who FROM notes")).scalars().all()
            read.execute(text("INSERT INTO notes VALUES ('slipped in')"))
        with engine.begin() as connection:
            connection.execute(text("INSERT INTO notes VALUES ('written')"))
    with reading(engine) as read:
        assert read.execute(text("SELECT who FROM notes")).scalars().all() == [
            "first", "written", "written"
        ]  # fmt: skip
    with engine.begin() as connection:
        connection.execute(text("DROP TABLE notes"))
    engine.dispose()
