"""A mesa's people, for the services that need them without importing the game: the accounts
link a guest's person at a mesa to the account they sign up for (:func:`person_of`), and a
deleted account's people become «jugador borrado» (:func:`forget_people`). ``app.py`` hands
both to the accounts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from sqlalchemy import Engine, delete, or_, select, update
from sqlalchemy.engine import Connection

from fichaflow.core.errors import FichaFlowError
from fichaflow.server.mesa import token_hash
from fichaflow.server.models import ChatReportRow, PartidaRow, PersonRow
from fichaflow.server.service import TableService
from fichaflow.storage import reading


async def person_of(service: TableService, code: str, token: str) -> tuple[int, str]:
    """The person (their id and name) whose token at mesa ``code`` is ``token``; a Spanish
    error when the mesa does not exist or nobody there holds that token."""
    async with service.locked(code) as room:
        entry = service.tokens.get(token_hash(token))
        if entry is None or entry[0] != code:
            raise FichaFlowError("server.bad_token")
        person = room.mesa.people[entry[1]]
        return person.id, person.name


RENAMED_CHUNK: Final = 500
"""Mesas looked up in one statement by :func:`leave_memory_if_renamed`."""

DELETED_NAME: Final = "jugador borrado"
"""What a deleted account's person is called at every mesa linked to it, from then on, in the
mesa and in its partidas' records (which take the names from the mesa's people)."""


def _rename(engine: Engine, people: list[tuple[str, int]], name: str) -> None:
    """The person's name becomes ``name`` at the mesa, and so in the names each of its
    partidas was started with (``partidas.players``, what the records say); the table talk's
    reports of the person's words, and those the person made, are deleted (the account's own
    rows of the talk, its blocks among them, went with the account: ``talk.forget``)."""
    with engine.begin() as connection:
        for code, person in people:
            _rename_person(connection, code, person, name)


def _rename_person(connection: Connection, code: str, person: int, name: str) -> None:
    """One person of :func:`_rename`, in the caller's transaction."""
    old = connection.execute(
        select(PersonRow.name).where(PersonRow.mesa == code, PersonRow.id == person)
    ).scalar()
    # The table talk's reports of what the person said, and those they made, go too.
    connection.execute(
        delete(ChatReportRow).where(
            ChatReportRow.mesa == code,
            or_(ChatReportRow.speaker == person, ChatReportRow.reporter == person),
        )
    )
    if old is None:
        return
    connection.execute(
        update(PersonRow)
        .where(PersonRow.mesa == code, PersonRow.id == person)
        .values(name=name, account=None)
    )
    partidas = connection.execute(
        select(PartidaRow.number, PartidaRow.players).where(PartidaRow.mesa == code)
    ).all()
    for number, players in partidas:
        if old in players:
            renamed = [name if p == old else p for p in players]
            connection.execute(
                update(PartidaRow)
                .where(PartidaRow.mesa == code, PartidaRow.number == number)
                .values(players=renamed)
            )


def rename_seated(renamed: set[str], connection: Connection, code: str, old: str, new: str) -> None:
    """At mesa ``code``, whose people another service seated by name (a torneo's table: linked
    to no account), the people called ``old`` become ``new``, as a deleted account's people do,
    in the caller's transaction (the account's deletion); ``code`` goes into ``renamed``, the
    mesas :func:`forget_people` then takes out of memory, as its own."""
    people = connection.execute(
        select(PersonRow.id).where(PersonRow.mesa == code, PersonRow.name == old)
    ).scalars()
    for person in list(people):
        _rename_person(connection, code, int(person), new)
    renamed.add(code)


async def forget_people(
    service: TableService, people: list[tuple[str, int]], renamed: set[str] | None = None
) -> set[str]:
    """The people (mesa code, person id) of a deleted account become «jugador borrado»: in the
    database first, in one transaction; then each of those mesas, and those in ``renamed`` (the
    mesas the deletion's own transaction renamed through :func:`rename_seated`), leaves this
    server's memory (:func:`leave_memory`). Returns all their codes: in a cluster ``app.py``
    tells the other servers, and each lets those it holds leave its memory the same way (a
    server that Redis could not tell then keeps showing the old name at such a mesa until it
    leaves its memory; it never writes a person's name back: see ``docs/accounts.md``)."""
    codes = {code for code, _ in people}
    while renamed:
        codes.add(renamed.pop())
    if people:
        await service.storage.run(_rename, service.storage.engine, people, DELETED_NAME)
    await leave_memory(service, codes)
    return codes


async def leave_memory(service: TableService, codes: Iterable[str]) -> None:
    """Each of the mesas ``codes`` this server holds in memory leaves it, the database being
    ahead (a deleted account's people renamed): its clients connect again, as after any change
    the database is ahead with, and get the mesa as stored, new names included."""
    for code in codes:
        room = service.rooms.get(code)
        if room is None:
            continue
        async with room.lock:
            if not room.unloaded:
                service._drop(room)  # the database is ahead of its memory


async def leave_memory_if_renamed(service: TableService) -> None:
    """The mesas this server holds whose people the database names otherwise (an account
    deleted through another server while Redis could not tell this one) leave its memory, as
    :func:`leave_memory` does: one query, when this server subscribes to the cluster's bus again
    (``app.py``)."""
    held = {
        code: {person.id: person.name for person in room.mesa.people.values()}
        for code, room in service.rooms.items()
    }
    if held:
        renamed = await service.storage.run(_renamed, service.storage.engine, held)
        await leave_memory(service, renamed)


def _renamed(engine: Engine, held: dict[str, dict[int, str]]) -> list[str]:
    """Of the mesas ``held`` (code -> person id -> name), those where the database names one of
    those people otherwise."""
    codes = list(held)
    renamed: list[str] = []
    with reading(engine) as connection:
        for start in range(0, len(codes), RENAMED_CHUNK):
            rows = connection.execute(
                select(PersonRow.mesa, PersonRow.id, PersonRow.name).where(
                    PersonRow.mesa.in_(codes[start : start + RENAMED_CHUNK])
                )
            ).all()
            renamed += {mesa for mesa, person, name in rows if held[mesa].get(person, name) != name}
    return renamed
