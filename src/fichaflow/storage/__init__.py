"""The one database every service writes to: its connection, its schema's migrations and the base
its tables are declared on.

It sits below the services (the game server, the anotador) so that they share the database
without importing each other: each declares its own tables on :class:`Base` and reaches the
database through a :class:`Database`. Nothing here knows a service's tables.
"""

from fichaflow.storage.base import Base
from fichaflow.storage.database import Database, in_chunks, make_engine, migrate, reading

__all__ = ["Base", "Database", "in_chunks", "make_engine", "migrate", "reading"]
