"""One mesa in memory: its people, chairs, parados queue and the partida being played.

Every method checks first and changes second: it either raises a ``FichaFlowError`` and leaves the
mesa as it was, or changes the mesa and returns the records to commit. The rules of the game are
the core's: moves go through ``Hand.parse``/``Hand.check``/``Partida.play``, deals come from
``Deal.from_seed``, the first salida from the rules (or ``sorteo``).
"""

from __future__ import annotations

import hashlib
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, Literal

from fichaflow.bots.ladder import PLAYER_BOTS
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.hand import DRAW, Hand, Move, write_move
from fichaflow.core.names import player_name
from fichaflow.core.partida import Partida, PlayedHand
from fichaflow.core.record import draw_until_playable
from fichaflow.core.rules import Rules
from fichaflow.server import changes as ch
from fichaflow.server.fairness import commitment, new_seed
from fichaflow.server.protocol import MesaOptions

MesaStatus = Literal["waiting", "playing", "hand_over", "partida_over"]
"""No partida yet; a hand in play; between two hands; the partida won."""

TOKEN_BYTES = 24
CODE_BYTES = 9


def new_code() -> str:
    """A join code nobody can guess (72 random bits, URL-safe)."""
    return secrets.token_urlsafe(CODE_BYTES)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def offered_bot(name: str) -> str:
    """``name`` if it is a bot offered to players; a Spanish error listing them otherwise."""
    if name not in PLAYER_BOTS:
        raise FichaFlowError("bot.unknown", name=name, allowed=", ".join(PLAYER_BOTS))
    return name


@dataclass
class Person:
    id: int
    name: str
    token_hash: str
    is_host: bool = False
    account: str | None = None
    """The account of a player who joined signed in; None for a guest."""


@dataclass
class Chair:
    """``person`` owns the chair; ``bot`` plays it (a bot chair, or a substitute for an absent
    person, who takes the chair back on returning)."""

    person: int | None = None
    bot: str | None = None

    @property
    def empty(self) -> bool:
        return self.person is None and self.bot is None


@dataclass
class HandInfo:
    """What the server keeps about a hand beyond the core's position: its secret and its moves."""

    number: int
    seed: str
    commitment: str
    leader: int
    moves: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class MoveResult:
    seat: int
    notation: str
    timed_out: bool
    played: PlayedHand | None  # the scored hand, when this move ended it
    rotation: tuple[tuple[int, int | None, int | None], ...] = ()
    """At a partida's end: (seat, who got up, who sat down) for each chair that changed."""
    seated: tuple[Chair, ...] = ()
    """At a partida's end: each seat's chair as the partida ended, before any rotation (who
    played it: for the ratings)."""


def distinct_names(names: list[str]) -> list[str]:
    """Names the table's sentences can tell apart: where chairs share a name (two tirafichas,
    two Anas), each gets its seat number, counted from 1 as the table shows seats."""
    return [f"{n} {seat + 1}" if names.count(n) > 1 else n for seat, n in enumerate(names)]


@dataclass(frozen=True, slots=True)
class _Taken:
    """A snapshot and the objects it was taken of (rules, options, partida, people and queue,
    hands list): the next snapshot reuses what is still the same."""

    key: tuple[Any, ...]
    snap: ch.MesaSnapshot


def _queue_key(person: ch.PersonSnapshot) -> int:
    return person.queue_pos if person.queue_pos is not None else -1


class Mesa:
    def __init__(self, code: str, rules: Rules, options: MesaOptions, version: int = 0) -> None:
        self.code = code
        self.rules = rules
        self.options = options
        self.version = version
        self.people: dict[int, Person] = {}
        self.chairs = [Chair() for _ in range(rules.seats)]
        self.queue: list[int] = []
        self.partida: Partida | None = None
        self.partida_number = 0
        self.hands: list[HandInfo] = []
        self.ready: set[int] = set()
        self.started: float | None = None
        """When the current partida started (Unix time in milliseconds, as stored)."""
        self._last: _Taken | None = None  # the last snapshot, and what it was taken of

    @classmethod
    def create(
        cls,
        code: str,
        rules: Rules,
        options: MesaOptions,
        plan: list[str | None] | None,
        host_name: str,
        host_seat: int | None,
        host_account: str | None = None,
    ) -> tuple[Mesa, Person, str, list[ch.Change]]:
        """A new mesa with bots where the seating plan names them, and its host (seated at
        ``host_seat`` if given): the mesa, the host, the host's token and what to commit."""
        offered_bot(options.timeout_bot)
        plan = plan if plan is not None else [None] * rules.seats
        if len(plan) != rules.seats:
            raise FichaFlowError("server.plan_size", found=len(plan), seats=rules.seats)
        mesa = cls(code, rules, options)
        out: list[ch.Change] = [ch.NewMesa(code, rules.dump(), options.model_dump())]
        for seat, bot in enumerate(plan):
            if bot is not None:
                out += mesa.seat_bot(seat, bot, None)
            else:
                out.append(ch.SetSeat(code, seat, None, None))
        host, token, more = mesa.add_person(host_name, is_host=True, account=host_account)
        out += more
        if host_seat is not None:
            out += mesa.sit(host.id, host_seat)
        return mesa, host, token, out

    # -- reading ---------------------------------------------------------------------------

    @property
    def host(self) -> Person | None:
        return next((p for p in self.people.values() if p.is_host), None)

    def seat_of(self, person: int) -> int | None:
        for seat, chair in enumerate(self.chairs):  # (a plain loop: asked per connection a move)
            if chair.person == person:
                return seat
        return None

    def seat_name(self, seat: int) -> str:
        chair = self.chairs[seat]
        if chair.person is not None:
            return self.people[chair.person].name
        return chair.bot or ""

    @property
    def playing(self) -> bool:
        """A partida is under way (a hand in play, or between two hands)."""
        return self.partida is not None and not self.partida.over

    @property
    def hand(self) -> Hand | None:
        return self.partida.current if self.partida is not None else None

    @property
    def status(self) -> MesaStatus:
        if self.partida is None:
            return "waiting"
        if self.partida.over:
            return "partida_over"
        return "hand_over" if self.partida.to_deal else "playing"

    @property
    def time_ends(self) -> float | None:
        """When time is up in the current partida (Unix time in milliseconds), if the mesa
        plays by time (``options.time_minutes``) and a partida is under way; None otherwise."""
        minutes = self.options.time_minutes
        if minutes is None or self.partida is None or self.started is None:
            return None
        return self.started + minutes * 60_000

    def bot_to_move(self) -> str | None:
        """The bot whose turn it is, if a bot is to move."""
        seat = None if self.partida is None else self.partida.turn
        return None if seat is None else self.chairs[seat].bot

    # -- people and chairs -----------------------------------------------------------------

    def add_person(
        self, name: str, is_host: bool = False, account: str | None = None
    ) -> tuple[Person, str, list[ch.Change]]:
        token = new_token()
        person = Person(max(self.people, default=0) + 1, player_name(name), token_hash(token))
        person.is_host = is_host
        person.account = account
        self.people[person.id] = person
        new = ch.NewPerson(self.code, person.id, person.name, person.token_hash, is_host, account)
        return person, token, [new]

    def join(
        self, name: str, seat: int | None, account: str | None = None
    ) -> tuple[Person, str, list[ch.Change]]:
        """A newcomer takes ``seat``, or estar parado when no seat is named; ``account`` is the
        signed-in player's (None: a guest)."""
        player_name(name)
        if seat is not None:
            self._free_seat(seat)
        person, token, out = self.add_person(name, account=account)
        out += self.sit(person.id, seat) if seat is not None else self.enqueue(person.id)
        return person, token, out

    def set_account(self, person: int, account: str) -> list[ch.Change]:
        """The guest ``person`` signed up: from now on they are the account's at this mesa."""
        self.people[person].account = account
        return [ch.SetAccount(self.code, person, account)]

    def guests_seated(self) -> list[str]:
        """The names of the people at the chairs who did not join signed in."""
        return [
            self.people[c.person].name
            for c in self.chairs
            if c.person is not None and self.people[c.person].account is None
        ]

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.chairs):
            raise FichaFlowError("server.seat_range", seat=seat, high=len(self.chairs) - 1)

    def _free_seat(self, seat: int) -> None:
        self._check_seat(seat)
        if not self.chairs[seat].empty:
            raise FichaFlowError("server.seat_taken", seat=seat)

    def _between_partidas(self) -> None:
        if self.playing:
            raise FichaFlowError("server.partida_running")

    def sit(self, person: int, seat: int) -> list[ch.Change]:
        self._free_seat(seat)
        if self.seat_of(person) is not None:
            raise FichaFlowError("server.already_seated", seat=self.seat_of(person))
        self.chairs[seat] = Chair(person, None)
        out: list[ch.Change] = [ch.SetSeat(self.code, seat, person, None)]
        if person in self.queue:
            self.queue.remove(person)
            out.append(ch.SetQueue(self.code, tuple(self.queue)))
        return out

    def stand(self, person: int) -> list[ch.Change]:
        seat = self.seat_of(person)
        if seat is None:
            raise FichaFlowError("server.not_seated")
        self._between_partidas()
        self.chairs[seat] = Chair()
        return [ch.SetSeat(self.code, seat, None, None)]

    def enqueue(self, person: int) -> list[ch.Change]:
        if self.seat_of(person) is not None:
            raise FichaFlowError("server.already_seated", seat=self.seat_of(person))
        if person in self.queue:
            raise FichaFlowError("server.already_queued")
        self.queue.append(person)
        return [ch.SetQueue(self.code, tuple(self.queue))]

    def unqueue(self, person: int) -> list[ch.Change]:
        if person not in self.queue:
            raise FichaFlowError("server.not_queued")
        self.queue.remove(person)
        return [ch.SetQueue(self.code, tuple(self.queue))]

    def reorder(self, order: list[int]) -> list[ch.Change]:
        if sorted(order) != sorted(self.queue) or len(set(order)) != len(order):
            listed = ", ".join(str(p) for p in self.queue) or "-"
            raise FichaFlowError("server.queue_order", queue=listed)
        self.queue = list(order)
        return [ch.SetQueue(self.code, tuple(self.queue))]

    def seat_bot(self, seat: int, bot: str, away_for: float | None) -> list[ch.Change]:
        """A bot in an empty chair, or in the chair of a person away for longer than the grace
        period (``away_for`` seconds; None while they are connected)."""
        self._check_seat(seat)
        offered_bot(bot)
        chair = self.chairs[seat]
        if chair.person is not None:
            if chair.bot is not None:
                raise FichaFlowError("server.seat_taken", seat=seat)
            if away_for is None:
                raise FichaFlowError("server.seat_connected", seat=seat)
            grace = self.options.grace_seconds
            if away_for < grace:
                raise FichaFlowError("server.grace", seat=seat, away=int(away_for), grace=grace)
        elif chair.bot is not None:
            raise FichaFlowError("server.seat_taken", seat=seat)
        else:
            self._between_partidas()
        chair.bot = bot
        return [ch.SetSeat(self.code, seat, chair.person, bot)]

    def reclaim(self, person: int) -> list[ch.Change]:
        """A person back in their chair takes it from the bot that stood in for them."""
        seat = self.seat_of(person)
        if seat is None or self.chairs[seat].bot is None:
            return []
        self.chairs[seat].bot = None
        return [ch.SetSeat(self.code, seat, person, None)]

    def clear_seat(self, seat: int) -> list[ch.Change]:
        self._check_seat(seat)
        self._between_partidas()
        self.chairs[seat] = Chair()
        return [ch.SetSeat(self.code, seat, None, None)]

    def configure(self, rules: Rules | None, options: MesaOptions | None) -> list[ch.Change]:
        self._between_partidas()
        if options is not None:
            offered_bot(options.timeout_bot)
        if rules is not None and rules.seats != len(self.chairs):
            raise FichaFlowError("server.mode_change", seats=len(self.chairs))
        self.rules = rules or self.rules
        self.options = options or self.options
        return [ch.SetMesa(self.code, self.rules.dump(), self.options.model_dump())]

    # -- the partida ------------------------------------------------------------------------

    def start(self) -> list[ch.Change]:
        """A new partida with everybody seated now, and its first hand."""
        self._between_partidas()
        missing = [str(s) for s, c in enumerate(self.chairs) if c.empty]
        if missing:
            raise FichaFlowError("server.seats_empty", seats=", ".join(missing))
        guests = self.guests_seated()
        if self.options.rated and guests:
            raise FichaFlowError("server.rated_guests", names=", ".join(guests))
        players = distinct_names([self.seat_name(s) for s in range(len(self.chairs))])
        self.partida = Partida(self.rules, players)
        self.partida_number += 1
        self.hands = []
        self.started = time.time() * 1000
        out: list[ch.Change] = [
            ch.NewPartida(self.code, self.partida_number, self.rules.dump(), players, self.started)
        ]
        return out + self.deal_next_hand()

    def deal_next_hand(self) -> list[ch.Change]:
        """Deal the partida's next hand from a fresh seed."""
        if self.partida is None:
            raise FichaFlowError("server.no_partida")
        return self.deal_hand(new_seed(self.partida.hand_number, self.partida_number))

    def deal_hand(self, seed: str, leader: int | None = None) -> list[ch.Change]:
        """Deal the next hand from ``seed``; the partida chooses its leader (drawing the sorteo
        from the seed when the rules ask for one). ``leader``, when replaying, must agree."""
        partida = self.partida
        if partida is None or partida.over:
            raise FichaFlowError("server.no_partida")
        if partida.current is not None:
            raise FichaFlowError("record.hand_unfinished")
        hand = partida.deal(seed, leader)  # the leader always holds a tile to lead
        info = HandInfo(partida.hand_number, seed, commitment(seed), hand.leader)
        self.hands.append(info)
        self.ready = set()
        return [
            ch.NewHand(
                self.code, self.partida_number, info.number, seed, info.commitment, hand.leader
            )
        ]

    def sorteo_rounds(self) -> list[list[tuple[int, int]]] | None:
        """The tiles turned up to decide the first salida, while the first hand of a partida that
        drew a sorteo is the latest hand."""
        if self.partida is None or self.partida.sorteo is None or self.hands[-1].number != 1:
            return None
        return self.partida.sorteo[1]

    def parse_move(self, seat: int, token: str) -> Move:
        """The move ``seat`` asks for, checked by the core; errors never say who holds a tile."""
        hand = self.hand
        if hand is None:
            raise FichaFlowError("move.no_hand")
        if hand.turn != seat:
            raise FichaFlowError("server.not_your_turn", turn=hand.turn)
        move = hand.parse(token, draws=True)
        hand.check(move)
        return move

    def play(self, seat: int, move: Move, timed_out: bool = False) -> tuple[MoveResult, list[Any]]:
        """Make a checked move; a hand that ends is scored, a partida that ends rotates the
        parados in. A person draws from the montón one tile per move, as at a real table; a bot's
        chair, and a person whose time ran out while drawing, draw on until a tile fits."""
        partida, hand = self.partida, self.hand
        assert partida is not None and hand is not None and hand.turn == seat
        hand.check(move)
        notation, change = self._write(seat, move, timed_out)
        played = partida.play(move)
        out: list[ch.Change] = [change, *self._forced_draws(seat if timed_out else None)]
        rotation, seated, more = self._ended()
        return MoveResult(seat, notation, timed_out, played, rotation, seated), out + more

    def _ended(
        self,
    ) -> tuple[tuple[tuple[int, int | None, int | None], ...], tuple[Chair, ...], list[ch.Change]]:
        """When the partida has just ended: the rotation of the parados, each seat's chair as
        it ended (who played it) and what to commit; nothing while it goes on."""
        partida = self.partida
        if partida is None or not partida.over:
            return (), (), []
        assert partida.winner is not None
        seated = tuple(Chair(c.person, c.bot) for c in self.chairs)
        out: list[ch.Change] = [ch.EndPartida(self.code, self.partida_number, partida.winner)]
        rotation: tuple[tuple[int, int | None, int | None], ...] = ()
        if self.options.parados:
            rotation, more = self.rotate(partida.losers)
            out += more
        return rotation, seated, out

    def call_time(self) -> tuple[MoveResult, list[ch.Change]]:
        """Time is up in the partida under way (``Partida.call_time``): the hand in play is
        finished, or, between hands, the partida ends at once unless the scores are tied. The
        result's ``seated`` is set when the partida ended with the call (its ``seat`` is -1:
        nobody moved)."""
        partida = self.partida
        if partida is None or partida.over:
            raise FichaFlowError("server.no_partida")
        hand, moves = partida.call_time()
        out: list[ch.Change] = [ch.CallTime(self.code, self.partida_number, hand, moves)]
        rotation, seated, more = self._ended()
        return MoveResult(-1, "", False, None, rotation, seated), out + more

    def _write(self, seat: int, move: Move, timed_out: bool) -> tuple[str, ch.Change]:
        """The notation of ``move`` (before it is made: a play's end depends on the line) and
        the change that stores it."""
        hand = self.hand
        assert hand is not None
        notation = write_move(move, (hand.left, hand.right))
        info = self.hands[-1]
        info.moves.append(notation)
        number = len(info.moves)
        change = ch.NewMove(
            self.code, self.partida_number, info.number, number, seat, notation, timed_out
        )
        return notation, change

    def _forced_draws(self, out_of_time: int | None) -> list[ch.Change]:
        """Draws nobody chooses: while the player to move has nothing to play and the montón has
        tiles, a bot's chair (or ``out_of_time``, the seat whose timer ran out) draws. Each draw
        is stored like any move, so that replaying the stored moves rebuilds the hand."""
        hand = self.hand
        out: list[ch.Change] = []
        while hand is not None and hand.must_draw:
            seat = hand.turn
            if self.chairs[seat].bot is None and seat != out_of_time:
                break
            out.append(self._write(seat, DRAW, seat == out_of_time)[1])
            hand.push(DRAW)
        return out

    def snapshot(self) -> ch.MesaSnapshot:
        """The mesa as the database has it once its changes are committed: what
        :meth:`restore` rebuilds it from, so that an action whose commit failed can be undone
        without reading the database. Taken after every commit, so what did not change since the
        last one (the rules, the people, the finished hands) is reused from it."""
        last = self._last
        hand_now = None
        if self.hands:
            h = self.hands[-1]
            hand_now = ch.HandSnapshot(h.number, h.seed, h.leader, tuple(h.moves))
        if last is None or last.key[0] is not self.rules or last.key[1] is not self.options:
            rules, options = self.rules.dump(), self.options.model_dump()
        else:
            rules, options = last.snap.rules, last.snap.options
        people_key = (
            len(self.people),
            tuple(self.queue),
            tuple(p.account for p in self.people.values()),
        )
        if last is not None and last.key[3] == people_key:
            people = last.snap.people
        else:
            queue = {person: n for n, person in enumerate(self.queue)}
            people = tuple(
                ch.PersonSnapshot(p.id, p.name, p.token_hash, p.is_host, queue.get(p.id), p.account)
                for p in self.people.values()
            )
        if (
            last is not None
            and last.key[2] is self.partida
            and last.snap.partida is not None
            and last.snap.partida.time_up == self.partida.time_up
        ):
            partida = last.snap.partida
        elif self.partida is not None:
            players = list(self.partida.players or ())
            partida = ch.PartidaSnapshot(
                self.partida_number,
                self.partida.rules.dump(),
                players,
                self.started,
                self.partida.time_up,
            )
        else:
            partida = None
        n = len(self.hands)
        same = last is not None and last.key[4] is self.hands
        if same and last is not None and len(last.snap.hands) == n:
            past = last.snap.hands[: n - 1]  # the same hand in play: the finished ones are as were
        elif (
            same
            and last is not None
            and len(last.snap.hands) == n - 1
            and (n == 1 or len(last.snap.hands[-1].moves) == len(self.hands[n - 2].moves))
        ):
            past = last.snap.hands  # a hand dealt since: the one before ended as it was taken
        else:
            past = tuple(
                ch.HandSnapshot(h.number, h.seed, h.leader, tuple(h.moves)) for h in self.hands[:-1]
            )
        snap = ch.MesaSnapshot(
            code=self.code,
            rules=rules,
            options=options,
            version=self.version,
            people=people,
            seats=tuple(
                ch.SeatSnapshot(seat, chair.person, chair.bot)
                for seat, chair in enumerate(self.chairs)
            ),
            partida=partida,
            hands=past if hand_now is None else (*past, hand_now),
        )
        self._last = _Taken((self.rules, self.options, self.partida, people_key, self.hands), snap)
        return snap

    @classmethod
    def restore(cls, snap: ch.MesaSnapshot) -> Mesa:
        """The mesa as the database has it: people and chairs as stored, the current partida
        rebuilt by replaying its hands' seeds and moves through the core."""
        mesa = cls(
            snap.code,
            Rules.load(snap.rules),
            MesaOptions.model_validate(snap.options),
            snap.version,
        )
        for p in snap.people:
            mesa.people[p.id] = Person(p.id, p.name, p.token_hash, p.is_host, p.account)
        mesa.queue = [p.id for p in sorted(snap.people, key=_queue_key) if p.queue_pos is not None]
        for seat in snap.seats:
            mesa.chairs[seat.seat] = Chair(seat.person, seat.bot)
        if snap.partida is not None:
            rules = Rules.load(snap.partida.rules)
            mesa.partida = Partida(rules, snap.partida.players)
            mesa.partida_number = snap.partida.number
            mesa.started = snap.partida.started
            called = snap.partida.time_up
            if called == (0, 0):
                mesa.partida.call_time()
            for hand in snap.hands:
                mesa.deal_hand(hand.seed, hand.leader)
                written = 0
                for notation in hand.moves:
                    current = mesa.partida.current
                    assert current is not None
                    move = current.parse(notation, draws=True)
                    if called == (hand.number, written) and mesa.partida.time_up is None:
                        mesa.partida.call_time()
                    if not move.is_draw:
                        draw_until_playable(current)  # logs written before draws were stored
                        written += 1
                    mesa.partida.play(move)
                    mesa.hands[-1].moves.append(notation)
                if called == (hand.number, written) and mesa.partida.time_up is None:
                    mesa.partida.call_time()
        return mesa

    def rotate(
        self, losers: tuple[int, ...]
    ) -> tuple[tuple[tuple[int, int | None, int | None], ...], list[ch.Change]]:
        """The losing side gets up and the first parados sit down, chair by chair in seat order,
        while the queue lasts. People who get up go to the end of the queue; bots leave."""
        assert self.partida is not None
        seats = sorted(s for team in losers for s in self.partida.rules.seats_of(team))
        rotation = []
        out: list[ch.Change] = []
        got_up: list[int] = []
        for seat in seats:
            if not self.queue:
                break
            chair = self.chairs[seat]
            newcomer = self.queue.pop(0)
            if chair.person is not None:
                got_up.append(chair.person)
            rotation.append((seat, chair.person, newcomer))
            self.chairs[seat] = Chair(newcomer, None)
            out.append(ch.SetSeat(self.code, seat, newcomer, None))
        if rotation:
            self.queue += got_up
            out.append(ch.SetQueue(self.code, tuple(self.queue)))
        return tuple(rotation), out
