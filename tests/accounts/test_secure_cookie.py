"""Behind a TLS proxy the session cookie is ``Secure``: the server believes the proxy's
``X-Forwarded-Proto: https`` only from the addresses named with ``--forwarded-allow-ips``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.accounts.kit import PASSWORD, fresh_name
from tests.server.kit import ServerProcess


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = Path(tmp_path_factory.mktemp("accounts-tls"))
    options = ["--forwarded-allow-ips", "127.0.0.1"]
    with ServerProcess(f"sqlite:///{folder / 'db.sqlite3'}", options=options) as server:
        yield server


def sign_up(server: ServerProcess, headers: dict[str, str]) -> str:
    answer = httpx.post(
        f"{server.url}/api/accounts/signup",
        json={"name": fresh_name(), "password": PASSWORD},
        headers=headers,
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    return answer.headers["set-cookie"].lower()


def test_the_cookie_is_secure_when_the_proxy_says_https(proxied: ServerProcess) -> None:
    cookie = sign_up(proxied, {"X-Forwarded-Proto": "https"})
    assert "; secure" in cookie and "httponly" in cookie and "samesite=lax" in cookie
    plain = sign_up(proxied, {})
    assert "secure" not in plain


@pytest.mark.slow  # a second server; the trusted proxy's case stays quick
def test_a_stranger_saying_https_is_not_believed(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite3'}") as server:  # no proxy named
        assert "secure" not in sign_up(server, {"X-Forwarded-Proto": "https"})
