"""The HTTP fuzzer: schemathesis reads the OpenAPI document a running server serves
(``/openapi.json``) and sends every operation requests that fit it and requests that do not,
to unknown mesas and to real ones (a mesa with a finished partida, a waiting mesa, an anotador
sheet). No answer may be a server error, and a refused request (4xx) changes nothing: every
table of the database, and what the server holds in memory of the real mesas, are as before.

The quick set sends a few examples per operation; the slow run (CI) many more, within a time
bound, and prints how many.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import response_schema_conformance

from tests.server.kit import (
    TEST_SEED,
    Client,
    ServerProcess,
    all_told_partida_over,
    create_mesa,
    join,
)

QUICK_EXAMPLES: Final = 4
"""Per operation in the quick set: a smoke test of every operation; the slow run sends
SLOW_EXAMPLES."""
SLOW_EXAMPLES: Final = 200
CHECKS: Final = [not_a_server_error, response_schema_conformance]
"""No server error; an answer whose status the document declares has the declared shape. (Not
the status conformance: the anotador's and the Repaso's refusals are not in the document.)"""
SLOW_SECONDS: Final = 180.0
"""The slow run stops generating when this much time has passed (the examples left pass)."""


@dataclass
class Known:
    """Real things for the fuzzer to aim at, besides the codes it makes up."""

    server: ServerProcess
    database: Path
    games: list[str]  # a mesa whose partida was played out, and a waiting one
    sheet: str  # an anotador sheet's code
    watch: str  # and its read-only code
    sent: Counter[str] = field(default_factory=Counter)
    refused: int = 0


async def prepare(server: ServerProcess, database: Path) -> Known:
    played = await create_mesa(
        server, rules={"preset": "mano_a_mano", "target": 10}, seats=[None, "tirafichas"],
        name="Ana", seat=0,
    )  # fmt: skip
    ana = Client(server, played["code"], played["token"], autoplay=True)
    await ana.connect()
    await ana.send({"type": "start"})
    await all_told_partida_over([ana], 120)
    await ana.close()
    waiting = await create_mesa(server, name="Beto")
    await join(server, waiting["code"], "Carla", 1)
    async with server.http() as http:
        sheet = await http.post(
            "/api/anotador/mesas",
            json={"name": "Casa", "rules": "mano_a_mano", "players": ["Ana", "Beto"]},
        )
        assert sheet.status_code == 201, sheet.text
    codes = [played["code"], waiting["code"]]
    body = sheet.json()
    return Known(server, database, codes, body["code"], body["watch"])


@pytest.fixture(scope="module")
def known(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Known]:
    database = Path(tmp_path_factory.mktemp("openapi")) / "fichaflow.sqlite3"
    with ServerProcess(f"sqlite:///{database}", seed=TEST_SEED) as server:
        yield asyncio.run(prepare(server, database))


LEASE_CLOCK = "lease_until"
"""The one column a running server writes by itself (it renews its mesas' leases): left out."""


def stored(database: Path) -> str:
    """Every row of every table (the leases' clock aside), as one digest."""
    digest = hashlib.sha256()
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in sorted(tables):
            cursor = db.execute(f'SELECT * FROM "{table}"')
            keep = [n for n, d in enumerate(cursor.description) if d[0] != LEASE_CLOCK]
            rows = sorted(repr([row[n] for n in keep]) for row in cursor)
            digest.update(f"{table}:{len(rows)}:{rows}".encode())
    return digest.hexdigest()


def held(known: Known, http: httpx.Client) -> list[Any]:
    """What the server holds in memory: how many mesas, and the real ones as it tells them (who
    is connected and for how long aside)."""
    out: list[Any] = [http.get("/api/health").json()]
    for code in known.games:
        mesa = http.get(f"/api/mesas/{code}").json()
        for seat in mesa["mesa"]["seats"]:
            seat["away_seconds"] = None
        out.append(mesa)
    out.append(http.get(f"/api/anotador/mesas/{known.sheet}").json())
    return out


def path_values(known: Known, names: set[str]) -> list[dict[str, Any]]:
    """Path parameters that reach the real mesas (each combination one strategy)."""
    combos: list[dict[str, Any]] = []
    codes = [*known.games, known.sheet] if "code" in names else [None]
    for code in codes:
        values: dict[str, Any] = {}
        if code is not None:
            values["code"] = code
        if "watch" in names:
            values["watch"] = known.watch
        combos.append(values)  # the rest made up
        whole = {"number": 1, "hand": 1, "fmt": "csv", "lang": "es"}
        combos.append({**values, **{k: v for k, v in whole.items() if k in names}})
    return combos


def fuzz_operation(
    known: Known, http: httpx.Client, operation: Any, examples: int, deadline: float
) -> None:
    """``examples`` requests to one operation, each judged."""
    names = {p.name for p in operation.path_parameters}
    strategies = [operation.as_strategy(mode) for mode in GenerationMode]
    for values in path_values(known, names) if names else []:
        strategies += [operation.as_strategy(m, path_parameters=values) for m in GenerationMode]
    label = f"{operation.method.upper()} {operation.path}"

    @given(case=st.one_of(strategies))
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    def one(case: Any) -> None:
        if time.monotonic() > deadline:
            return
        before = (stored(known.database), held(known, http))
        response = case.call(base_url=known.server.url, timeout=60)
        known.sent[label] += 1
        case.validate_response(response, checks=CHECKS)
        if 400 <= response.status_code < 500:
            known.refused += 1
            after = (stored(known.database), held(known, http))
            assert after == before, (
                f"{label} refused with {response.status_code} but changed the server: "
                f"{response.text[:300]}"
            )

    one()


def fuzz(known: Known, examples: int, seconds: float) -> None:
    """Up to ``examples`` requests to each operation of the document, for at most ``seconds``."""
    schema = schemathesis.openapi.from_url(f"{known.server.url}/openapi.json")
    began = time.monotonic()
    known.sent.clear()
    known.refused = 0
    with httpx.Client(base_url=known.server.url, timeout=30) as http:
        for result in schema.get_all_operations():
            assert isinstance(result, Ok), result.err()
            fuzz_operation(known, http, result.ok(), examples, began + seconds)
    total = sum(known.sent.values())
    print(
        f"\nopenapi fuzz: {total} requests to {len(known.sent)} operations "
        f"in {time.monotonic() - began:.0f} s, {known.refused} refused; {dict(known.sent)}"
    )


def test_openapi_fuzz_quick(known: Known) -> None:
    fuzz(known, QUICK_EXAMPLES, 120)


@pytest.mark.slow
def test_openapi_fuzz_many(known: Known) -> None:
    fuzz(known, SLOW_EXAMPLES, SLOW_SECONDS)
