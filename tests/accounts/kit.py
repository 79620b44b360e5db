"""Helpers for the accounts' tests: a browser-like client that keeps its cookie, and fresh
names (the tests of a module share one server)."""

from __future__ import annotations

import secrets
from typing import Any

import httpx

from tests.server.kit import ServerProcess

PASSWORD = "dominó a las seis"


def fresh_name(prefix: str = "Ana") -> str:
    return f"{prefix} {secrets.token_hex(3)}"


class Player:
    """One browser: its own cookie jar, and the CSRF token it was last given."""

    def __init__(self, server: ServerProcess) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=30)
        self.csrf: str | None = None
        self.answer: dict[str, Any] = {}

    def post(self, path: str, body: Any = None, csrf: bool = True) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf} if csrf and self.csrf else {}
        return self.http.post(f"/api/accounts{path}", json=body or {}, headers=headers)

    def delete(self, path: str, csrf: bool = True) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf} if csrf and self.csrf else {}
        return self.http.delete(f"/api/accounts{path}", headers=headers)

    def get(self, path: str) -> httpx.Response:
        return self.http.get(f"/api/accounts{path}")

    def took(self, response: httpx.Response, status: int = 200) -> dict[str, Any]:
        assert response.status_code == status, response.text
        data: dict[str, Any] = response.json()
        if "csrf" in data:
            self.csrf = data["csrf"]
        self.answer = data
        return data

    def sign_up(self, name: str, password: str = PASSWORD) -> dict[str, Any]:
        return self.took(self.post("/signup", {"name": name, "password": password}), 201)

    def sign_in(self, name: str, password: str = PASSWORD) -> dict[str, Any]:
        return self.took(self.post("/signin", {"name": name, "password": password}))

    def close(self) -> None:
        self.http.close()


def error_code(response: httpx.Response) -> str:
    return str(response.json()["error"]["code"])
