"""Who a seat token is, for the services that need to know without importing the game: the
accounts link a guest's person at a mesa to the account they sign up for (``app.py`` hands them
:func:`person_of`)."""

from __future__ import annotations

from fichaflow.core.errors import FichaFlowError
from fichaflow.server.mesa import token_hash
from fichaflow.server.service import TableService


async def person_of(service: TableService, code: str, token: str) -> tuple[int, str]:
    """The person (their id and name) whose token at mesa ``code`` is ``token``; a Spanish
    error when the mesa does not exist or nobody there holds that token."""
    async with service.locked(code) as room:
        entry = service.tokens.get(token_hash(token))
        if entry is None or entry[0] != code:
            raise FichaFlowError("server.bad_token")
        person = room.mesa.people[entry[1]]
        return person.id, person.name
