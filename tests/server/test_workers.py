"""A server stopped (SIGTERM) or killed without a word (SIGKILL) leaves no worker process behind:
its bots' and its Repaso's pools end with it instead of waiting for good on a queue nobody
writes to."""

from __future__ import annotations

import signal
from pathlib import Path

import httpx
import pytest

from tests.cluster.kit import outliving
from tests.review.records import LAST_TILES
from tests.server.kit import ServerProcess


def children(pid: int) -> set[int]:
    """The live child processes of ``pid`` (Linux's /proc)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.update(int(p) for p in text)
    return found


def alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "State:\tZ" not in status  # a zombie has ended; only its exit status waits


@pytest.mark.slow  # a review and two server lives: about 25 s
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGKILL], ids=["stopped", "killed"])
def test_a_server_leaves_no_worker_behind(tmp_path: Path, stop: signal.Signals) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'workers.sqlite3'}")
    server.start()
    assert server.process is not None
    # a review starts the Repaso's pool beside the bots' one
    answer = httpx.post(
        f"{server.url}/api/repaso",
        json={"record": LAST_TILES, "hand": 1, "seat": 1, "precision": "fast"},
        timeout=120,
    )
    assert answer.status_code == 200, answer.text
    workers = {p for p in children(server.process.pid) if alive(p)}
    assert len(workers) >= 2, "the server started fewer worker processes than its two pools"
    server.process.send_signal(stop)
    server.process.wait(20)
    left = outliving(workers, 20)
    assert not left, f"workers outlived their server: {left}"
    server.stop()
