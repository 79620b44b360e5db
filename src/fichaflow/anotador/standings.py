"""Standings of a mesa: per player and per pair, over every partida with at least one line."""

from __future__ import annotations

from dataclasses import dataclass

from fichaflow.anotador.sheet import MesaState, PartidaSheet


@dataclass(slots=True)
class Standing:
    """One player's or one pair's record at the mesa."""

    partidas: int = 0
    won: int = 0
    hands_won: int = 0
    points_for: int = 0
    points_against: int = 0
    zapatos_given: int = 0
    zapatos_taken: int = 0

    def add(self, sheet: PartidaSheet, team: int) -> None:
        self.partidas += 1
        self.hands_won += sheet.hands_won[team]
        self.points_for += sheet.totals[team]
        self.points_against += sum(s for t, s in enumerate(sheet.totals) if t != team)
        if sheet.winner == team:
            self.won += 1
            self.zapatos_given += sheet.zapato
        elif sheet.winner is not None:
            self.zapatos_taken += sheet.zapato


@dataclass(frozen=True, slots=True)
class Standings:
    """``players`` by name and ``pairs`` by their two names (in seat order of their first
    partida together, so that "Ana y Carla" reads as the sheet did); best first."""

    players: tuple[tuple[str, Standing], ...]
    pairs: tuple[tuple[tuple[str, str], Standing], ...]


def _most_wins_first(item: tuple[object, Standing]) -> tuple[int, int, int]:
    """The standings' order: partidas won, then hands won, then the points' difference."""
    s = item[1]
    return (-s.won, -s.hands_won, -(s.points_for - s.points_against))


def standings(state: MesaState) -> Standings:
    players: dict[str, Standing] = {}
    pairs: dict[frozenset[str], tuple[tuple[str, str], Standing]] = {}
    for sheet in state.partidas:
        if not sheet.lines:
            continue
        rules = sheet.rules
        for team in range(rules.teams):
            seats = rules.seats_of(team)
            for seat in seats:
                players.setdefault(sheet.seating[seat], Standing()).add(sheet, team)
            if len(seats) == 2:
                names = (sheet.seating[seats[0]], sheet.seating[seats[1]])
                _, record = pairs.setdefault(frozenset(names), (names, Standing()))
                record.add(sheet, team)
    return Standings(
        tuple(sorted(players.items(), key=_most_wins_first)),
        tuple(sorted(pairs.values(), key=_most_wins_first)),
    )
