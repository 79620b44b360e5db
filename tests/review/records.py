"""Hand-made positions for the Repaso tests, as game records."""

from __future__ import annotations

from typing import Any

# Mano a mano. After Ana's 3-3 (move 23) the montón is empty, so Beto sees every tile: Ana holds
# 2-1, 3-2, 5-3 and 6-5, Beto 3-1 and 6-4, and the ends show 3 and 4.
# * With the 3-1 on the 3 (ends 1 and 4) Ana's only tile that fits is the 2-1; then Beto lays the
#   6-4 on the 4 and dominates, scoring what Ana still holds: 3-2, 5-3, 6-5 = 5 + 8 + 11 = 24.
# * Beto played the 6-4 instead (ends 3 and 6): Ana goes on with 3-2, 6-5 and 5-3 while he passes
#   twice, and he dominates with the 3-1 for her 2-1 alone: 3 points. That is the deliberate
#   mistake: 21 points thrown away.
LAST_TILES: dict[str, Any] = {
    "rules": "mano_a_mano",
    "players": ["Ana", "Beto"],
    "hands": [
        {
            "deal": [
                ["1-1", "3-0", "3-3", "5-0", "5-5", "6-1", "6-6"],
                ["1-0", "2-2", "4-4", "5-4", "6-2", "6-3", "6-4"],
            ],
            "stock": [
                "6-0",
                "5-2",
                "3-2",
                "0-0",
                "4-2",
                "3-1",
                "2-0",
                "4-1",
                "4-3",
                "5-1",
                "6-5",
                "4-0",
                "2-1",
                "5-3",
            ],
            "leader": 0,
            "moves": [
                "6-6",
                "6-3:right",
                "6-1",
                "1-0",
                "3-0:right",
                "6-0:right",
                "5-0",
                "6-2",
                "5-5",
                "2-2",
                "5-2:right",
                "5-4:left",
                "4-2",
                "2-0",
                "0-0",
                "5-1",
                "1-1",
                "4-1",
                "4-0:left",
                "4-4:left",
                "pass",
                "4-3:left",
                "3-3",
                "6-4",
                "3-2",
                "pass",
                "6-5",
                "pass",
                "5-3",
                "3-1",
            ],
        }
    ],
}
LAST_TILES_DECISION = 23
"""Beto's decision between the 3-1 and the 6-4, as a move number of the record (from 0)."""
