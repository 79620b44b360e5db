"""``fichaflow serve`` on a fresh machine: it makes its own database, and a busy port or a
database it cannot use is one Spanish line and status 2."""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.server.kit import SERVE, free_port, wait_until_serving


def test_the_default_database_is_created_in_the_users_data_folder(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    process = subprocess.Popen(
        [*SERVE, "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env
    )
    try:
        assert wait_until_serving(f"http://127.0.0.1:{port}", process)
        database = tmp_path / "data" / "fichaflow" / "fichaflow.sqlite3"
        assert database.exists()
    finally:
        process.terminate()
        output = process.communicate(timeout=20)[0].decode()
    assert f"http://127.0.0.1:{port}/" in output
    assert str(database) in output


def test_join_links_point_where_friends_can_open_them(tmp_path: Path) -> None:
    """A mesa created from this machine's own loopback address gets a join link with the
    address friends use (--public-url; with --host 0.0.0.0 the machine's network address)."""
    port = free_port()
    database = f"sqlite:///{tmp_path / 'links.sqlite3'}"
    public = "http://192.0.2.10:8000"  # a documentation address: nothing is sent to it
    command = [*SERVE, "--port", str(port), "--db", database, "--public-url", public]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        assert wait_until_serving(base, process)
        created = httpx.post(f"{base}/api/mesas", json={"name": "Ana"}, timeout=10).json()
        assert created["join_url"] == f"{public}/m/{created['code']}"
    finally:
        process.terminate()
        output = process.communicate(timeout=20)[0].decode()
    assert f"Tus amigos, en la misma red: {public}/" in output


@pytest.mark.slow  # four serve commands that fail; the other serve tests stay quick
def test_a_busy_port_and_a_bad_database_are_one_spanish_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [*SERVE, "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("Error: No se puede escuchar") and "Traceback" not in done.stderr
    done = subprocess.run(
        [*SERVE, "--port", str(free_port()), "--db", "postgresql+psycopg://nobody@127.0.0.1:1/x"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("Error: No se puede usar la base de datos")
    assert "Traceback" not in done.stderr


def test_bot_workers_with_redis_is_refused_rather_than_ignored(tmp_path: Path) -> None:
    """With --redis the bots think in `fichaflow worker`: a --bot-workers count would be
    silently ignored, so the server says so and does not start."""
    port = free_port()
    done = subprocess.run(
        [*SERVE, "--port", str(port), "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}",
         "--redis", f"redis://127.0.0.1:{free_port()}/0", "--bot-workers", "3"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("Error: --bot-workers 3 no sirve con --redis")
    assert "fichaflow worker" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "x.sqlite3").exists()


@pytest.mark.parametrize("bad", ["cada hora", "-60", "1.5", "99999999", ""])
def test_a_bad_mining_interval_is_one_spanish_line_and_starts_nothing(
    tmp_path: Path, bad: str
) -> None:
    database = tmp_path / "x.sqlite3"
    done = subprocess.run(
        [*SERVE, "--port", str(free_port()), "--db", f"sqlite:///{database}",
         "--mine-problemas-every", bad],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout
    assert done.stderr.startswith("Error: --mine-problemas-every espera los segundos")
    assert f"«{bad}» no lo es" in done.stderr and "Traceback" not in done.stderr
    assert not database.exists()
