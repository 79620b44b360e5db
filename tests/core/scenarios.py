"""Scripted hands for the core tests, written out tile by tile so each test can say by hand what
the contract makes of them.

The tranque hand (parejas): seat 0 leads the cochina and ten tiles later seat 1 places the last
six, 6-0, with both ends showing 6: every six is on the line, so nobody can play. Only these ten
tiles are played; the other eighteen (the "fillers", no six among them) stay in the hands, so the
pips left are whatever fillers a test hands out.
"""

from __future__ import annotations

from fichaflow.core.deal import Deal
from tests.core.kit import deal

# Seat by seat, the tiles each plays; every move fits as written.
TRANQUE_PLAYED = ("6-6 3-2 1-0", "6-4 5-6 0-6", "6-3 2-6", "4-5 6-1")
TRANQUE_MOVES = (
    "6-6",  # seat 0 leads the cochina: ends 6|6
    "6-4:left",  # seat 1: fits both sixes, so the end is named; ends 4|6
    "6-3",  # seat 2: only the right end shows a six; ends 4|3
    "4-5",  # seat 3; ends 5|3
    "3-2",  # seat 0; ends 5|2
    "5-6",  # seat 1; ends 6|2
    "2-6:right",  # seat 2: 2-6 fits both 6 and 2; ends 6|6
    "6-1:right",  # seat 3; ends 6|1
    "1-0",  # seat 0; ends 6|0
    "0-6:right",  # seat 1 places the seventh six: ends 6|6, tranque, seat 1 is the trancador
)
TRANQUE_CLOSER = 1

# Fillers (4, 4, 5 and 5 tiles) and the pips each seat keeps, added up by hand.
FILLERS = {
    # 5-1 5-2 5-3 5-5 = 6+7+8+10 = 31 | 0+2+2+3 = 7 | 4+3+4+6+4 = 21 | 5+6+7+8+5 = 31
    "A": (("5-1 5-2 5-3 5-5", "0-0 1-1 2-0 2-1", "2-2 3-0 3-1 3-3 4-0", "4-1 4-2 4-3 4-4 5-0"),
          (31, 7, 21, 31)),
    # 7+6+7+10 = 30 | 0+3+6+8 = 17 | 2+2+4+4+4 = 16 | 3+5+6+8+5 = 27
    "B": (("4-3 5-1 5-2 5-5", "0-0 3-0 3-3 5-3", "1-1 2-0 2-2 3-1 4-0", "2-1 4-1 4-2 4-4 5-0"),
          (30, 17, 16, 27)),
    # 2+4+4+4 = 14 | 5+7+8+7 = 27 | 3+3+6+5+10 = 27 | 0+2+6+6+8 = 22
    "C": (("2-0 2-2 3-1 4-0", "4-1 4-3 4-4 5-2", "2-1 3-0 4-2 5-0 5-5", "0-0 1-1 3-3 5-1 5-3"),
          (14, 27, 27, 22)),
    # 0+5+7+8 = 20 | 2+3+4+8 = 17 | 3+6+4+6+6 = 25 | 2+4+5+7+10 = 28: pairs 45 and 45
    "D": (("0-0 5-0 5-2 5-3", "2-0 2-1 3-1 4-4", "3-0 3-3 4-0 4-2 5-1", "1-1 2-2 4-1 4-3 5-5"),
          (20, 17, 25, 28)),
    # 3+6+5+8 = 22 | 3+5+6+7 = 21 | 2+4+4+6+10 = 26 | 0+2+4+7+8 = 21
    "E1": (("2-1 3-3 5-0 5-3", "3-0 4-1 4-2 5-2", "2-0 3-1 4-0 5-1 5-5", "0-0 1-1 2-2 4-3 4-4"),
           (22, 21, 26, 21)),
    # 2+6+5+6 = 19 | 3+4+8+6 = 21 | 0+2+3+4+10 = 19 | 4+7+5+7+8 = 31
    "E2": (("2-0 3-3 4-1 4-2", "3-0 3-1 4-4 5-1", "0-0 1-1 2-1 2-2 5-5", "4-0 4-3 5-0 5-2 5-3"),
           (19, 21, 19, 31)),
    # 2+6+8+7 = 23 | 6+4+5+10 = 25 | 3+4+4+7+8 = 26 | 0+2+3+5+6 = 16
    "E3": (("2-0 4-2 4-4 5-2", "3-3 4-0 5-0 5-5", "2-1 2-2 3-1 4-3 5-3", "0-0 1-1 3-0 4-1 5-1"),
           (23, 25, 26, 16)),
}  # fmt: skip


def rotated(hands: tuple[str, ...], by: int) -> tuple[str, ...]:
    """The same hands moved ``by`` seats round the table (seat i's tiles go to seat i + by)."""
    n = len(hands)
    return tuple(hands[(seat - by) % n] for seat in range(n))


def tranque_hands(fillers: str, by: int = 0) -> tuple[str, ...]:
    """The tranque hand's deal with a set of fillers, rotated so that seat ``by`` leads."""
    extra = FILLERS[fillers][0]
    hands = tuple(f"{played} {more}" for played, more in zip(TRANQUE_PLAYED, extra, strict=True))
    return rotated(hands, by)


def tranque_deal(fillers: str, by: int = 0) -> Deal:
    return deal(*tranque_hands(fillers, by))


def tranque_pips(fillers: str, by: int = 0) -> tuple[int, ...]:
    pips = FILLERS[fillers][1]
    return tuple(pips[(seat - by) % 4] for seat in range(4))


# The same ten tiles in tres: seat 0 leads the cochina (the highest double dealt) and places
# the last six. Here the 6-0 is in the montón: after 1-0 the ends are 6|0 and no hand holds a
# six or a blank, but the montón does, so the hand goes on; seat 0 draws 4-4, then 6-0, plays it,
# and that is the tranque. Pips left: 1-1 2-1 2-2 3-1 + 4-4 = 2+3+4+4+8 = 21 | 6+5+6+7 = 24 |
# 6+7+8+10 = 31; the montón keeps 0-0 2-0 3-0 4-0 5-0, which never count.
TRES_HANDS = (
    "6-6 4-5 2-6 1-1 2-1 2-2 3-1",
    "6-4 3-2 6-1 3-3 4-1 4-2 4-3",
    "6-3 5-6 1-0 5-1 5-2 5-3 5-5",
)
TRES_STOCK = "4-4 6-0 0-0 2-0 3-0 4-0 5-0"
TRES_PIPS = (21, 24, 31)


def tres_deal() -> Deal:
    return deal(*TRES_HANDS, stock=TRES_STOCK)


# Parejas: seat 0 holds all seven sixes and leads the cochina; nobody else has a six, so the
# three others pass: a salida pasada (seat 1 passed on the lead) and a pase redondo for seat 0.
ALL_SIXES = "6-6 6-5 6-4 6-3 6-2 6-1 6-0"
PASES_HANDS = (
    ALL_SIXES,
    "0-0 1-0 1-1 2-0 2-1 2-2 3-0",
    "3-1 3-2 3-3 4-0 4-1 4-2 4-3",
    "4-4 5-0 5-1 5-2 5-3 5-4 5-5",
)

# Mano a mano: seat 0 holds all seven sixes; seat 1 and the montón none. After the cochina,
# seat 1 has to draw all fourteen tiles and only then may pass.
EMPTY_STOCK_HANDS = (ALL_SIXES, "0-0 1-0 1-1 2-0 2-1 2-2 3-0")
EMPTY_STOCK_STOCK = "3-1 3-2 3-3 4-0 4-1 4-2 4-3 4-4 5-0 5-1 5-2 5-3 5-4 5-5"

# Mano a mano: after the cochina seat 1 (no six) draws 4-3 and 4-4, which do not fit, then
# 6-2, which does, and plays it.
DRAW_HANDS = ("6-6 0-0 1-0 1-1 2-0 2-1 2-2", "3-0 3-1 3-2 3-3 4-0 4-1 4-2")
DRAW_STOCK = "4-3 4-4 6-2 5-0 5-1 5-2 5-3 5-4 5-5 6-0 6-1 6-3 6-4 6-5"

# Whole hands (venezuela, first hand) that end in a dominada of a particular kind.
CAPICUA_RECORD = {
    "rules": "venezuela",
    "hands": [
        {
            "deal": [
                ["1-1", "2-1", "2-2", "3-1", "4-3", "5-0", "5-1"],
                ["3-2", "4-1", "4-2", "4-4", "5-5", "6-0", "6-5"],
                ["1-0", "2-0", "5-2", "6-1", "6-2", "6-3", "6-6"],
                ["0-0", "3-0", "3-3", "4-0", "5-3", "5-4", "6-4"],
            ],
            "moves": [
                "6-6", "6-4:right", "4-3", "3-2", "5-2", "5-3", "3-1", "4-1", "6-1", "4-0",
                "5-1", "6-5", "1-0", "pass", "2-1", "6-0", "2-0:right", "3-0:right", "5-0",
                "5-5", "6-3", "5-4", "pass", "4-2", "6-2:right",
            ],
        }
    ],
}  # fmt: skip
CHUCHAZO_RECORD = {
    "rules": "venezuela",
    "hands": [
        {
            "deal": [
                ["0-0", "3-0", "3-2", "5-3", "6-0", "6-5", "6-6"],
                ["1-0", "2-0", "4-0", "5-4", "5-5", "6-1", "6-2"],
                ["2-1", "2-2", "3-1", "4-3", "4-4", "5-2", "6-3"],
                ["1-1", "3-3", "4-1", "4-2", "5-0", "5-1", "6-4"],
            ],
            "moves": [
                "6-6", "6-1:left", "2-1", "4-2", "6-5", "5-4:right", "4-4:right", "6-4:right",
                "6-0", "4-0:right", "4-3:right", "4-1", "3-0", "1-0:right", "3-1:right", "1-1",
                "5-3", "5-5", "5-2", "5-1", "3-2", "pass", "6-3", "5-0", "0-0",
            ],
        }
    ],
}  # fmt: skip
BLOCKING_DOMINO_RECORD = {
    "rules": "venezuela",
    "hands": [
        {
            "deal": [
                ["0-0", "1-0", "1-1", "2-2", "3-3", "5-3", "6-0"],
                ["2-0", "2-1", "3-0", "5-2", "5-4", "5-5", "6-3"],
                ["3-1", "5-0", "5-1", "6-1", "6-2", "6-5", "6-6"],
                ["3-2", "4-0", "4-1", "4-2", "4-3", "4-4", "6-4"],
            ],
            "moves": [
                "6-6", "6-4:left", "6-0", "5-4", "5-1", "4-1", "1-0", "2-1", "6-2", "4-2",
                "2-2", "5-2", "5-0", "4-0", "pass", "6-3", "3-1", "4-3", "5-3", "5-5", "6-5",
                "pass", "1-1", "pass", "6-1:left",
            ],
        }
    ],
}  # fmt: skip
DOUBLE_ON_EQUAL_ENDS_RECORD = {
    "rules": "venezuela",
    "hands": [
        {
            "deal": [
                ["2-1", "3-0", "3-2", "3-3", "4-0", "6-0", "6-2"],
                ["0-0", "1-1", "5-0", "5-1", "5-2", "5-4", "6-3"],
                ["2-2", "3-1", "4-1", "4-2", "5-5", "6-5", "6-6"],
                ["1-0", "2-0", "4-3", "4-4", "5-3", "6-1", "6-4"],
            ],
            "moves": [
                "6-6", "6-1:right", "6-2", "5-2", "4-1", "4-4", "4-0", "5-1", "3-1", "5-3",
                "6-0", "5-4", "6-5", "6-4", "pass", "6-3", "5-5", "4-3", "pass", "5-0", "4-2",
                "1-0", "2-1:right", "pass", "2-2:left",
            ],
        }
    ],
}  # fmt: skip

# Venezuela with both bonuses at 50 and a target of 50: seat 1 passes on the cochina (salida
# pasada, pair 0-2), later seats 0, 1 and 2 all pass after seat 3's 6-5 (pase redondo, pair
# 1-3), and the tranque ends with the pairs tied at 35 (2+5+6 + 0+3+4+7+8 against
# 2+5+8+9 + 6+5): nobody wins the hand, and both pairs reach the target with 50 each.
TIED_BONUS_RECORD = {
    "rules": {
        "preset": "venezuela", "target": 50, "pase_redondo_bonus": 50, "salida_pasada_bonus": 50,
    },
    "hands": [
        {
            "deal": [
                ["2-0", "2-1", "3-2", "4-2", "5-1", "6-3", "6-6"],
                ["1-1", "2-2", "3-1", "5-0", "5-2", "5-3", "5-4"],
                ["0-0", "3-0", "4-0", "4-3", "4-4", "5-5", "6-0"],
                ["1-0", "3-3", "4-1", "6-1", "6-2", "6-4", "6-5"],
            ],
            "leader": 0,
            "moves": [
                "6-6", "pass", "6-0:left", "1-0", "6-3", "3-1:right", "pass", "6-1:right",
                "2-1", "5-2", "5-5", "6-5:left", "pass", "pass", "pass", "6-4:right", "4-2",
                "2-2", "pass", "6-2:right",
            ],
        }
    ],
}  # fmt: skip

# Parejas, seat 1 passes on the cochina (a salida pasada for pair 0-2) and ten tiles later
# seat 2 trancó. Pips left: 5-1 5-2 5-3 5-5 = 31 | 2-2 3-0 3-1 3-3 4-0 = 21 |
# 4-1 4-2 4-3 4-4 = 26 | 0-0 1-1 2-0 2-1 5-0 = 12. Con el de abajo seat 3 (12) beats the
# trancador (26), so pair 1-3 wins the hand; counting all it scores 90.
PASADA_HANDS = (
    "6-6 4-5 6-1 5-1 5-2 5-3 5-5",
    "3-2 1-0 2-2 3-0 3-1 3-3 4-0",
    "6-4 5-6 0-6 4-1 4-2 4-3 4-4",
    "6-3 2-6 0-0 1-1 2-0 2-1 5-0",
)
PASADA_MOVES = (
    "6-6", "pass", "6-4:left", "6-3", "4-5", "3-2", "5-6", "2-6:right", "6-1:right", "1-0",
    "0-6:right",
)  # fmt: skip

# Tres, the same ten tiles with other fillers, so that another seat has the fewest pips.
# "T2": seat 0 keeps 5-1 5-2 5-3 5-5 + 4-4 = 39, seat 1 13, seat 2 24: seat 1 scores 63.
# "T3": seat 0 keeps 3-3 4-1 4-2 4-3 + 4-4 = 32, seat 1 31, seat 2 13: seat 2 scores 63.
TRES_VARIANTS = {
    "T1": TRES_HANDS,
    "T2": (
        "6-6 4-5 2-6 5-1 5-2 5-3 5-5",
        "6-4 3-2 6-1 1-1 2-1 2-2 3-1",
        "6-3 5-6 1-0 3-3 4-1 4-2 4-3",
    ),
    "T3": (
        "6-6 4-5 2-6 3-3 4-1 4-2 4-3",
        "6-4 3-2 6-1 5-1 5-2 5-3 5-5",
        "6-3 5-6 1-0 1-1 2-1 2-2 3-1",
    ),
}
