"""The load bench's clients play real partidas against a real server, with either WebSocket
client: the figures in docs/benchmarks.md are only worth the clients that made them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "load_server.py"


@pytest.mark.slow
@pytest.mark.parametrize("client", ["lean", "websockets"])
def test_every_client_plays_its_turns_and_reads_every_kind_of_message(client: str) -> None:
    command = [sys.executable, str(BENCH), "--tables", "4", "--delay", "0.02"]
    command += ["--seconds", "4", "--warmup", "1", "--client", client]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout[done.stdout.index("{") :])
    assert summary["client"] == client
    assert summary["errors"] == 0, summary["error_kinds"]
    # Four mesas answering after 20 ms make many moves a second, and every mover hears its own.
    assert summary["moves_per_s"] > 20
    assert summary["moves_measured"] > 50
    assert 0 < summary["p50_ms"] <= summary["p99_ms"] <= summary["max_ms"]
    # Hands end and new ones start: the clients say ready, or no hand after the first is dealt.
    assert {"move", "hand_end", "hand_start", "mesa"} <= set(summary["frames_per_move_by_type"])
