"""The whole update after a rated partida, database included (issue target: under 5 ms): what
the server waits for at a partida's end (``accounts.players.record_partida``): read each
account's rating, rate everybody (``ratings.rate_partida``, bots fixed), write each account's new
rating and its partida row, in one committed transaction.

python bench/rating_update.py --repeat 300
python bench/rating_update.py --repeat 300 --database postgresql+psycopg://postgres@127.0.0.1:5432/test

Without ``--database`` it uses a fresh SQLite file with the server's settings (WAL,
``synchronous=FULL``: each commit waits for the disk). A PostgreSQL database gets its own schema,
dropped at the end.
"""

from __future__ import annotations

import argparse
import platform
import secrets
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, insert, text

from fichaflow.accounts.players import record_partida
from fichaflow.accounts.tables import AccountRow
from fichaflow.core.rules import Mode
from fichaflow.storage.database import make_engine, migrate

SHAPES: dict[Mode, list[int]] = {
    Mode.PAREJAS: [0, 1, 0, 1],
    Mode.MANO_A_MANO: [0, 1],
    Mode.TRES: [0, 1, 2],
}
"""Each seat's side."""


def accounts(engine: Engine, count: int) -> list[str]:
    ids = [secrets.token_urlsafe(18) for _ in range(count)]
    with engine.begin() as connection:
        connection.execute(
            insert(AccountRow),
            [
                {
                    "id": i,
                    "name": f"p{n}",
                    "name_key": f"p{n}-{i}",
                    "password_hash": None,
                    "created_at": datetime.now(UTC),
                }
                for n, i in enumerate(ids)
            ],
        )
    return ids


def played(mode: Mode, number: int, people: list[str]) -> dict[str, Any]:
    """A partida as the game tells it: people in every seat but the last, a bot there."""
    teams = SHAPES[mode]
    seats = []
    for seat in range(len(teams)):
        person = seat < len(teams) - 1
        seats.append(
            {
                "seat": seat,
                "account": people[seat] if person else None,
                "bot": None if person else "jugador",
                "name": f"p{seat}",
            }
        )
    sides = max(teams) + 1
    return {
        "mesa": "bench",
        "partida": number,
        "mode": str(mode),
        "rated": True,
        "seats": seats,
        "teams": teams,
        "places": [(t - number) % sides for t in range(sides)],  # each side wins in turn
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--database", default=None, help="a SQLAlchemy URL (default: SQLite)")
    args = parser.parse_args()
    folder = tempfile.TemporaryDirectory()
    schema = None
    if args.database:
        schema = f"bench_{secrets.token_hex(4)}"
        admin = make_engine(args.database)
        with admin.begin() as connection:
            connection.execute(text(f"CREATE SCHEMA {schema}"))
        url = (
            f"{args.database}{'&' if '?' in args.database else '?'}options=-csearch_path%3D{schema}"
        )
    else:
        url = f"sqlite:///{Path(folder.name) / 'bench.sqlite3'}"
    engine = make_engine(url)
    migrate(engine)
    people = accounts(engine, 4)
    print(f"Python {platform.python_version()}, {engine.dialect.name}, {args.repeat} per mode")
    print("| mode | median | p99 |")
    print("|---|---|---|")
    number = 0
    for mode in Mode:
        times = []
        for _ in range(args.repeat):
            number += 1
            partida = played(mode, number, people)
            started = time.perf_counter()
            changes = record_partida(engine, partida)
            times.append(time.perf_counter() - started)
            assert changes is not None and len(changes) == len(SHAPES[mode])
        times.sort()
        median = statistics.median(times) * 1e3
        p99 = times[int(0.99 * (len(times) - 1))] * 1e3
        print(f"| {mode} | {median:.2f} ms | {p99:.2f} ms |")
    engine.dispose()
    if schema is not None:
        with admin.begin() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()
    folder.cleanup()


if __name__ == "__main__":
    main()
