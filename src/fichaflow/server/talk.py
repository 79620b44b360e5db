"""Table talk: quick phrases, free chat, blocks, and who may hear what.

Mirones talk among themselves. While a hand is in play the server never sends a mirón's words to
a seated player's connection (no kibitzing, as in serious play); what mirones say between hands
or after the partida everybody hears. A player's words reach everybody. A person never receives
the words of somebody they blocked. The mesa keeps its last ``HISTORY`` messages in memory for
reconnecting clients; they are not stored in the database (a restart forgets the talk), except
a saying somebody reports (:func:`store_report`, the ``chat_reports`` table).
"""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final, Literal

from sqlalchemy import Connection, Engine, delete, insert, or_, select
from typing_extensions import TypedDict

from fichaflow.core.errors import FichaFlowError
from fichaflow.server.models import ChatBlockRow, ChatReportRow
from fichaflow.storage import reading

PHRASES: Final = (
    "buena",
    "que_mano",
    "paso",
    "capicua",
    "tranque",
    "se_enfria",
    "gracias",
    "buena_partida",
)
"""The quick phrases, by key; each client says them in its own language (``chat.phrase.*``)."""

MAX_CHARS: Final = 200
"""The longest free message, in characters after spaces are tidied."""

RATE_COUNT: Final = 5
RATE_SECONDS: Final = 10.0
"""A person may say at most ``RATE_COUNT`` things in ``RATE_SECONDS``, over all their
connections to the mesa."""

HISTORY: Final = 50
"""Messages a mesa keeps in memory for whoever connects again."""


class ChatMessage(TypedDict):
    """Something said at the mesa: ``text`` (free chat, to show as text, never as HTML) or
    ``phrase`` (a key of :data:`PHRASES`), the other null."""

    type: Literal["chat"]
    id: int
    person: int
    name: str
    role: Literal["player", "miron"]
    text: str | None
    phrase: str | None
    at: float
    """Milliseconds since 1970 (UTC)."""


class Blocked(TypedDict):
    """Who the receiver has blocked (the answer to ``block``; also in ``welcome``)."""

    type: Literal["blocked"]
    people: list[int]


class Reported(TypedDict):
    """The answer to ``report``: the saying is stored for whoever moderates."""

    type: Literal["reported"]
    id: int


@dataclass(frozen=True, slots=True)
class Said:
    message: ChatMessage
    text: str  # the message as JSON
    in_hand: bool
    """Said by a mirón while a hand was in play: never for a seated player."""


def clean(text: str) -> str:
    """The text as it will be shown: runs of spaces and line breaks made one space, control and
    format characters dropped; a Spanish error when nothing is left or it is too long."""
    kept = "".join(c for c in text if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co"))
    tidy = " ".join(kept.split())
    if not tidy:
        raise FichaFlowError("server.chat_empty")
    if len(tidy) > MAX_CHARS:
        raise FichaFlowError("server.chat_too_long", length=len(tidy), limit=MAX_CHARS)
    return tidy


def phrase(key: str) -> str:
    if key not in PHRASES:
        raise FichaFlowError("server.chat_phrase", phrase=key[:32], allowed=", ".join(PHRASES))
    return key


@dataclass
class Talk:
    """A mesa's talk in memory: the recent messages, each person's recent sayings, the blocks."""

    history: deque[Said] = field(default_factory=lambda: deque(maxlen=HISTORY))
    recent: dict[int, deque[float]] = field(default_factory=dict)
    blocks: dict[int, set[int]] = field(default_factory=dict)
    """Blocker -> the people they blocked (for as long as the mesa is in this server's memory)."""
    stored: dict[int, set[str]] = field(default_factory=dict)
    """A signed-in person -> the accounts they blocked, as stored (``chat_blocks``): read at
    each of their hellos, so a block between accounts holds at every mesa and after a restart."""
    accounts: Callable[[], Mapping[int, str]] = dict
    """The mesa's signed-in people (person id -> account), set by the room."""
    count: int = 0
    reported: set[tuple[int, int]] = field(default_factory=set)
    """(reporter, saying id) already reported: a second report of the same saying stores nothing."""

    def check_rate(self, person: int, now: float | None = None) -> None:
        """Count one more saying of ``person``; a Spanish error (counting nothing) when they
        said ``RATE_COUNT`` things within the last ``RATE_SECONDS``."""
        now = time.monotonic() if now is None else now
        said = self.recent.setdefault(person, deque(maxlen=RATE_COUNT))
        if len(said) == RATE_COUNT and now - said[0] < RATE_SECONDS:
            wait = max(1, int(RATE_SECONDS - (now - said[0]) + 0.999))
            raise FichaFlowError("server.chat_rate", count=RATE_COUNT, seconds=wait)
        said.append(now)

    def block(self, blocker: int, blocked: int, on: bool, account: str | None = None) -> list[int]:
        """``blocker`` blocks ``blocked`` (or no longer, ``on`` false); ``account``, the
        blocked person's when both are signed in, is the stored block's."""
        people = self.blocks.setdefault(blocker, set())
        kept = self.stored.setdefault(blocker, set())
        if on and account is not None:
            kept.add(account)  # (not this mesa's own: unblocked elsewhere, unblocked here)
        elif on:
            people.add(blocked)
        else:
            people.discard(blocked)
            if account is not None:
                kept.discard(account)
        return sorted(self.blocked_by(blocker))

    def blocked_by(self, person: int | None) -> set[int]:
        """Whose words ``person`` never receives: those blocked at this mesa, and everybody
        here signed in with an account ``person`` blocked."""
        if person is None:
            return set()
        mine = self.blocks.get(person, set())
        kept = self.stored.get(person)
        if not kept:
            return mine
        return mine | {
            q for q, account in self.accounts().items() if account in kept and q != person
        }

    def may_hear(self, said: Said, person: int | None, seated: bool) -> bool:
        if seated and said.in_hand:
            return False
        return said.message["person"] not in self.blocked_by(person)

    def visible(self, person: int | None, seated: bool) -> list[ChatMessage]:
        return [s.message for s in self.history if self.may_hear(s, person, seated)]

    def reportable(self, saying: int, person: int, seated: bool) -> Said:
        """The saying ``saying`` as ``person`` heard it; a Spanish error when the mesa's recent
        talk has no such saying this person may hear, or it is their own."""
        said = next((s for s in self.history if s.message["id"] == saying), None)
        if said is None or not self.may_hear(said, person, seated):
            raise FichaFlowError("server.chat_report_which", saying=saying)
        if said.message["person"] == person:
            raise FichaFlowError("server.chat_report_own")
        return said


@dataclass(frozen=True, slots=True)
class Report:
    """A reported saying, as stored: the words, the mesa, who said them and who reported."""

    mesa: str
    message: ChatMessage
    speaker_account: str | None
    reporter: int
    reporter_name: str
    reporter_account: str | None


def store_report(engine: Engine, report: Report) -> None:
    message = report.message
    with engine.begin() as connection:
        connection.execute(
            insert(ChatReportRow).values(
                mesa=report.mesa,
                saying=message["id"],
                text=message["text"],
                phrase=message["phrase"],
                speaker=message["person"],
                speaker_name=message["name"],
                speaker_role=message["role"],
                speaker_account=report.speaker_account,
                reporter=report.reporter,
                reporter_name=report.reporter_name,
                reporter_account=report.reporter_account,
                said_at=datetime.fromtimestamp(message["at"] / 1000, UTC),
                reported_at=datetime.now(UTC),
            )
        )


def stored_blocks(engine: Engine, account: str) -> set[str]:
    """The accounts ``account`` blocked."""
    with reading(engine) as connection:
        rows = connection.execute(
            select(ChatBlockRow.blocked).where(ChatBlockRow.blocker == account)
        ).scalars()
        return set(rows)


def store_block(engine: Engine, blocker: str, blocked: str, on: bool) -> None:
    """Keep (or, ``on`` false, forget) that account ``blocker`` blocked account ``blocked``."""
    with engine.begin() as connection:
        connection.execute(
            delete(ChatBlockRow).where(
                ChatBlockRow.blocker == blocker, ChatBlockRow.blocked == blocked
            )
        )
        if on:
            connection.execute(
                insert(ChatBlockRow).values(
                    blocker=blocker, blocked=blocked, created_at=datetime.now(UTC)
                )
            )


def _stamp(moment: datetime) -> str:
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.isoformat(timespec="seconds")


def exported(connection: Connection, account: str) -> dict[str, Any]:
    """What the table talk keeps of an account, for its JSON export (the rows :func:`forget`
    deletes): the accounts it blocked, the sayings it reported, and its own words that others
    reported. Nobody else's account or name is in it (not who reported the player's words, nor
    who blocked the player: those are the others' doings)."""
    blocks = connection.execute(
        select(ChatBlockRow.blocked, ChatBlockRow.created_at)
        .where(ChatBlockRow.blocker == account)
        .order_by(ChatBlockRow.created_at)
    ).all()
    reports = connection.execute(
        select(ChatReportRow)
        .where(
            or_(ChatReportRow.reporter_account == account, ChatReportRow.speaker_account == account)
        )
        .order_by(ChatReportRow.id)
    ).all()
    made: list[dict[str, Any]] = []
    said: list[dict[str, Any]] = []
    for r in reports:
        words = {"mesa": r.mesa, "text": r.text, "phrase": r.phrase, "said_at": _stamp(r.said_at)}
        if r.reporter_account == account:
            made.append({**words, "reported_at": _stamp(r.reported_at)})
        if r.speaker_account == account:
            said.append({**words, "role": r.speaker_role})
    return {
        "talk": {
            "blocked": [{"account": b.blocked, "since": _stamp(b.created_at)} for b in blocks],
            "reported": made,
            "reported_words": said,
        }
    }


def forget(connection: Connection, account: str) -> None:
    """A deleted account's rows of the talk, inside its deletion: the blocks it made or
    received, the reports it made and those of its words (``server/people.py`` also deletes
    the reports of its people at the mesas it kept, words said before it signed up)."""
    connection.execute(
        delete(ChatBlockRow).where(
            or_(ChatBlockRow.blocker == account, ChatBlockRow.blocked == account)
        )
    )
    connection.execute(
        delete(ChatReportRow).where(
            or_(ChatReportRow.reporter_account == account, ChatReportRow.speaker_account == account)
        )
    )
