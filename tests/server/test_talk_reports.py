"""Reporting a saying of the table talk (#16), on SQLite and PostgreSQL: the saying is stored
with its words, mesa, speaker and reporter, once however often it is reported; a report that
names no saying the reporter could read, their own words, or comes from an anonymous mirón is
refused in Spanish and stores nothing."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import create_engine, select

from fichaflow.server.models import ChatReportRow
from tests.server.kit import Client, ServerProcess, is_spanish_error
from tests.server.test_talk import said, table


def reports(server: ServerProcess, code: str) -> list[Any]:
    engine = create_engine(server.database_url)
    try:
        with engine.connect() as connection:
            return list(
                connection.execute(
                    select(ChatReportRow)
                    .where(ChatReportRow.mesa == code)
                    .order_by(ChatReportRow.id)
                )
            )
    finally:
        engine.dispose()


async def report(client: Client, saying: int) -> None:
    await client.send({"type": "report", "id": saying})
    await client.expect("reported", where=lambda m: m["id"] == saying)


def test_a_reported_saying_is_stored_once_with_who_said_it_and_who_reported(
    server: ServerProcess,
) -> None:
    async def scenario() -> None:
        code, ana, beto, caro, anon = await table(server)
        await beto.send({"type": "say", "text": "<b>eres un tramposo</b>"})
        message = await said(ana, "<b>eres un tramposo</b>")
        await report(ana, message["id"])
        # A second report of the same saying, and one by Caro: two rows, not three.
        await report(ana, message["id"])
        await caro.send({"type": "say", "phrase": "buena"})
        phrase = await ana.expect("chat", where=lambda m: m["phrase"] == "buena")
        await report(caro, message["id"])
        await report(beto, phrase["id"])
        rows = reports(server, code)
        kept = [(r.text, r.phrase, r.speaker_name, r.speaker_role, r.reporter_name) for r in rows]
        assert kept == [
            ("<b>eres un tramposo</b>", None, "Beto", "player", "Ana"),
            ("<b>eres un tramposo</b>", None, "Beto", "player", "Caro"),
            (None, "buena", "Caro", "miron", "Beto"),
        ]  # fmt: skip
        assert rows[0].saying == message["id"] and rows[0].speaker == message["person"]
        assert rows[0].speaker_account is None and rows[0].reporter_account is None  # guests

        # Refused in Spanish, nothing stored: no such saying, one's own, an anonymous mirón.
        cases: list[tuple[Client, dict[str, Any], str]] = [
            (ana, {"type": "report", "id": 999}, "server.chat_report_which"),
            (ana, {"type": "report", "id": -1}, "server.chat_report_which"),
            (beto, {"type": "report", "id": message["id"]}, "server.chat_report_own"),
            (anon, {"type": "report", "id": message["id"]}, "server.chat_anonymous"),
            (ana, {"type": "report", "id": "uno"}, "server.bad_field"),
            (ana, {"type": "report"}, "server.missing_field"),
        ]
        for client, asked, error_code in cases:
            error = await client.ask(asked)
            assert is_spanish_error(error, error_code), (asked, error)
        # Mid-hand a player never heard a mirón's words, so cannot report them either.
        await ana.send({"type": "start"})
        await caro.expect("hand_start")
        await caro.send({"type": "say", "text": "Ana lleva el doble seis"})
        unheard = await said(anon, "Ana lleva el doble seis")
        error = await ana.ask({"type": "report", "id": unheard["id"]})
        assert is_spanish_error(error, "server.chat_report_which"), error
        assert len(reports(server, code)) == 3
        for c in (ana, beto, caro, anon):
            await c.close()

    asyncio.run(scenario())
