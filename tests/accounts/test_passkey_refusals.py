"""Passkeys' refusals through a real server, on SQLite and PostgreSQL (the ceremonies that
succeed are in test_browser.py, with Chromium's virtual authenticator): each is a clear Spanish
error, and none leaves an account, a session or a passkey behind."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.accounts.kit import Player, error_code, fresh_name
from tests.server.kit import ServerProcess


@pytest.fixture
def player(server: ServerProcess) -> Iterator[Player]:
    made = Player(server)
    made.http.headers["Host"] = f"localhost:{server.port}"  # passkeys need a host name
    yield made
    made.close()


def test_options_name_the_page_as_relying_party(player: Player) -> None:
    name = fresh_name("Dani")
    begun = player.took(player.post("/passkeys/signup/options", {"name": name}))
    options = begun["options"]
    assert options["rp"]["id"] == "localhost"
    assert options["user"]["name"] == name
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert len(begun["challenge"]) == 32
    signin = player.took(player.post("/passkeys/signin/options"))
    assert signin["options"]["rpId"] == "localhost" and "allowCredentials" not in str(
        {k: v for k, v in signin["options"].items() if v}
    )
    assert signin["challenge"] != begun["challenge"]


def test_an_ip_address_is_no_relying_party(server: ServerProcess) -> None:
    answer = httpx.post(f"{server.url}/api/accounts/passkeys/signin/options", json={})
    assert answer.status_code == 400 and error_code(answer) == "accounts.origin"
    assert "IP" in answer.json()["error"]["message"]
    plain = httpx.post(
        f"{server.url}/api/accounts/passkeys/signin/options",
        json={},
        headers={"Host": "domino.example", "Origin": "http://domino.example"},
    )
    assert plain.status_code in (400, 403)  # foreign to this server, and not HTTPS either


def test_a_made_up_ceremony_or_credential_is_refused(player: Player) -> None:
    name = fresh_name("Eva")
    begun = player.took(player.post("/passkeys/signup/options", {"name": name}))
    fake = {"id": "AAAA", "rawId": "AAAA", "type": "public-key", "response": {}}
    for challenge in ("nope", "x" * 500, "a\x00b", 7, begun["challenge"] + "x"):
        refused = player.post("/passkeys/signup", {"challenge": challenge, "credential": fake})
        assert refused.status_code == 400 and error_code(refused) == "accounts.challenge"
    broken = player.post("/passkeys/signup", {"challenge": begun["challenge"], "credential": fake})
    assert broken.status_code == 400 and error_code(broken) == "accounts.passkey"
    missing = player.post("/passkeys/signup", {"challenge": begun["challenge"]})
    assert error_code(missing) == "accounts.field"
    # the ceremony of one purpose does not serve another
    wrong = player.post("/passkeys/signin", {"challenge": begun["challenge"], "credential": fake})
    assert error_code(wrong) == "accounts.challenge"
    signin = player.took(player.post("/passkeys/signin/options"))
    for credential_id in ("AAAA", "a\x00b", "A" * 5000):
        unknown = player.post(
            "/passkeys/signin",
            {"challenge": signin["challenge"], "credential": {**fake, "id": credential_id}},
        )
        assert unknown.status_code == 401 and error_code(unknown) == "accounts.passkey_unknown"
    # nothing was made: the name is free, nobody is signed in
    assert player.get("/me").status_code == 401
    assert player.sign_up(name)["account"]["name"] == name


def test_adding_a_passkey_needs_a_session_and_its_csrf_token(player: Player) -> None:
    assert player.post("/passkeys/add/options").status_code == 401
    player.sign_up(fresh_name("Fer"))
    refused = player.post("/passkeys/add/options", csrf=False)
    assert refused.status_code == 403 and error_code(refused) == "accounts.csrf"
    begun = player.took(player.post("/passkeys/add/options"))
    assert begun["options"]["rp"]["id"] == "localhost"
    taken = player.post(
        "/passkeys/signup/options", {"name": player.answer["options"]["user"]["name"]}
    )
    assert taken.status_code == 409 and error_code(taken) == "accounts.name_taken"
