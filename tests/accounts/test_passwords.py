"""Accounts with a password, through a real server on SQLite and PostgreSQL: signing up and in,
the session cookie, CSRF on every change, recovery codes, signing out everywhere, the sign-in
rate limit, export and deletion."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from fichaflow.core.hand import write_move
from fichaflow.problemas import by_id, load_set
from tests.accounts.kit import PASSWORD, Player, error_code, fresh_name
from tests.accounts.test_talk_blocks import blocks_of, mesa_of, person
from tests.server.kit import ServerProcess
from tests.server.test_talk import said
from tests.server.test_talk_reports import report, reports


@pytest.fixture
def players(server: ServerProcess) -> Iterator[list[Player]]:
    made = [Player(server) for _ in range(3)]
    yield made
    for player in made:
        player.close()


def test_sign_up_then_in_from_another_browser(players: list[Player]) -> None:
    phone, laptop, _ = players
    name = fresh_name()
    made = phone.sign_up(name)
    assert made["account"]["name"] == name and made["account"]["password"] is True
    codes = made["recovery_codes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    assert phone.took(phone.get("/me"))["account"]["id"] == made["account"]["id"]
    assert phone.answer["codes_left"] == 10

    assert laptop.get("/me").status_code == 401
    # the name is found whatever its case
    assert laptop.sign_in(name.upper())["account"]["id"] == made["account"]["id"]
    # the codes are shown once: no later answer carries them
    assert "recovery_codes" not in laptop.answer
    assert "recovery_codes" not in laptop.took(laptop.get("/me"))


def test_the_cookie_is_httponly_lax_and_not_secure_over_plain_http(players: list[Player]) -> None:
    phone = players[0]
    response = phone.post("/signup", {"name": fresh_name(), "password": PASSWORD})
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    assert "secure" not in cookie  # http://127.0.0.1: a Secure cookie would never come back
    token = response.cookies["fichaflow_session"]
    assert token not in response.text  # the token lives in the cookie alone


def test_the_pages_hint_comes_and_goes_with_the_session(players: list[Player]) -> None:
    """Beside the session, a cookie the pages can read says there may be one (no secret in it):
    without it a page does not ask /me, so a guest's page logs no 401."""
    phone = players[0]
    response = phone.post("/signup", {"name": fresh_name(), "password": PASSWORD})
    hint = [
        c for c in response.headers.get_list("set-cookie") if c.startswith("fichaflow_signed_in=")
    ]
    assert len(hint) == 1, response.headers.get_list("set-cookie")
    assert hint[0].startswith("fichaflow_signed_in=1;")
    assert "httponly" not in hint[0].lower() and "samesite=lax" in hint[0].lower()
    assert "path=/" in hint[0].lower() and "secure" not in hint[0].lower()
    assert phone.http.cookies.get("fichaflow_signed_in") == "1"
    phone.took(response, 201)
    phone.took(phone.post("/signout"))
    assert phone.http.cookies.get("fichaflow_signed_in") is None
    assert phone.http.cookies.get("fichaflow_session") is None


def test_a_wrong_password_and_an_unknown_name_answer_alike(players: list[Player]) -> None:
    phone, laptop, _ = players
    name = fresh_name()
    phone.sign_up(name)
    wrong = laptop.post("/signin", {"name": name, "password": "not the one at all"})
    nobody = laptop.post("/signin", {"name": fresh_name("Nadie"), "password": PASSWORD})
    assert wrong.status_code == nobody.status_code == 401
    assert error_code(wrong) == error_code(nobody) == "accounts.wrong"
    assert "contraseña" in wrong.json()["error"]["message"]
    assert laptop.get("/me").status_code == 401


def test_names_follow_the_game_rule_and_are_unique(players: list[Player]) -> None:
    phone, laptop, _ = players
    name = fresh_name()
    phone.sign_up(f"  {name}  ")  # trimmed as the game trims
    taken = laptop.post("/signup", {"name": name.lower(), "password": PASSWORD})
    assert taken.status_code == 409 and error_code(taken) == "accounts.name_taken"
    blank = laptop.post("/signup", {"name": "\u3164", "password": PASSWORD})
    assert blank.status_code == 400 and error_code(blank) == "name.blank"
    nul = laptop.post("/signin", {"name": "Ana\x00", "password": PASSWORD})
    assert nul.status_code == 400 and error_code(nul) == "name.control"
    short = laptop.post("/signup", {"name": fresh_name(), "password": "corta"})
    assert short.status_code == 400 and error_code(short) == "accounts.password_short"
    surrogate = laptop.http.post(
        "/api/accounts/signup",
        content=b'{"name": "Beto", "password": "xxxxxxxx\\ud800"}',
        headers={"content-type": "application/json"},
    )
    assert error_code(surrogate) == "accounts.password_chars"
    assert laptop.get("/me").status_code == 401


def test_every_change_needs_the_csrf_token(players: list[Player]) -> None:
    phone = players[0]
    phone.sign_up(fresh_name())
    for path in ("/signout", "/signout-everywhere", "/recovery-codes", "/password"):
        refused = phone.post(path, {"password": "otra contraseña"}, csrf=False)
        assert refused.status_code == 403, path
        assert error_code(refused) == "accounts.csrf"
        assert "X-CSRF-Token" in refused.json()["error"]["message"]
    forged = phone.http.post(
        "/api/accounts/recovery-codes", json={}, headers={"X-CSRF-Token": "x" * 43}
    )
    assert forged.status_code == 403
    assert phone.delete("/me", csrf=False).status_code == 403
    # nothing of it happened: still signed in, the same ten codes, the same password
    assert phone.took(phone.get("/me"))["codes_left"] == 10
    assert phone.post("/signout").status_code == 200
    assert phone.get("/me").status_code == 401


def test_sign_out_everywhere_ends_every_session(players: list[Player]) -> None:
    phone, laptop, tablet = players
    name = fresh_name()
    phone.sign_up(name)
    laptop.sign_in(name)
    tablet.sign_in(name)
    ended = laptop.took(laptop.post("/signout-everywhere"))
    assert ended["signed_out"] == 3
    for browser in players:
        assert browser.get("/me").status_code == 401
    # an old cookie stays dead even with its CSRF token
    assert phone.post("/recovery-codes").status_code == 401


def test_a_recovery_code_works_once_and_sets_a_new_password(players: list[Player]) -> None:
    phone, laptop, tablet = players
    name = fresh_name()
    codes = phone.sign_up(name)["recovery_codes"]
    code = codes[3].upper().replace("-", " ")  # as a person might copy it
    back = laptop.took(
        laptop.post("/recover", {"name": name, "code": code, "password": "nueva contraseña"})
    )
    assert back["codes_left"] == 9
    assert phone.get("/me").status_code == 401  # recovering ends the other sessions
    again = tablet.post("/recover", {"name": name, "code": codes[3]})
    assert again.status_code == 400 and error_code(again) == "accounts.wrong_code"
    assert tablet.post("/signin", {"name": name, "password": PASSWORD}).status_code == 401
    tablet.sign_in(name, "nueva contraseña")
    fresh = tablet.took(tablet.post("/recovery-codes"))["recovery_codes"]
    assert len(fresh) == 10 and not set(fresh) & set(codes)
    old = phone.post("/recover", {"name": name, "code": codes[0]})
    assert old.status_code == 400  # the first ten stopped working


def test_sign_in_is_limited_per_name(players: list[Player]) -> None:
    phone, laptop, _ = players
    name = fresh_name()
    phone.sign_up(name)
    for _ in range(10):
        assert laptop.post("/signin", {"name": name, "password": "x" * 9}).status_code == 401
    refused = laptop.post("/signin", {"name": name, "password": PASSWORD})
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert error_code(refused) == "server.too_many"
    assert laptop.get("/me").status_code == 401
    # another name is not held up
    other = fresh_name()
    phone.sign_up(other)
    laptop.sign_in(other)


def test_export_then_delete_leaves_nothing(players: list[Player], server: ServerProcess) -> None:
    phone, laptop, beto = players
    name = fresh_name()
    made = phone.sign_up(name)
    laptop.sign_in(name)
    mine = made["account"]["id"]
    beto_id = beto.sign_up(fresh_name("Beto"))["account"]["id"]
    solved = _problema_solved(phone)  # the trainer keeps a rating, a streak and attempts
    tried = _problema_tried(phone, skip=solved)
    assert _trainer_rows(server, mine) == {"trainer_players": 1, "trainer_attempts": 2}
    mesa = asyncio.run(_quarrel(server, phone, beto))  # a block and reports of the table talk
    assert blocks_of(server, mine) == [(mine, beto_id)]
    exported = phone.get("/export")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["content-disposition"]
    data = exported.json()
    assert data["format"] == "fichaflow-account"
    assert data["account"] == {**made["account"], "problemas_allowed": False}  # off by default
    assert len(data["sessions"]) == 2 and sum(s["this_one"] for s in data["sessions"]) == 1
    assert data["recovery_codes_left"] == 10
    # the trainer's rows: the rating and streaks, and both attempts as they were made
    problemas = data["problemas"]
    assert problemas["player"]["attempts"] == 2
    assert (problemas["player"]["streak"], problemas["player"]["streak_best"]) == (0, 1)
    attempts = [(a["puzzle"], a["correct"], a["moves"]) for a in problemas["attempts"]]
    assert attempts == [(solved, True, [by_id(solved).best]), (tried, False, attempts[1][2])]
    assert attempts[1][2] != [by_id(tried).best] and problemas["attempts"][1]["cost"] > 0
    assert problemas["attempts"][1]["after"] == problemas["player"]["rating"]
    # the table talk's: whom the player blocked, what they reported and their words reported,
    # and not who reported them
    talk = data["talk"]
    assert [b["account"] for b in talk["blocked"]] == [beto_id]
    assert [(r["text"], r["mesa"]) for r in talk["reported"]] == [("¿y tú qué?", mesa)]
    assert [(r["text"], r["role"]) for r in talk["reported_words"]] == [("tramposo", "player")]
    assert "Beto" not in str(talk)
    text = exported.text
    for secret in (*made["recovery_codes"], phone.csrf or "", "argon2"):
        assert secret not in text

    assert phone.took(phone.delete("/me"))["deleted"] is True
    assert phone.get("/me").status_code == 401
    assert laptop.get("/me").status_code == 401  # every session went with it
    assert laptop.post("/signin", {"name": name, "password": PASSWORD}).status_code == 401
    assert _trainer_rows(server, mine) == {"trainer_players": 0, "trainer_attempts": 0}
    assert blocks_of(server, mine) == []
    assert [r.speaker_name for r in reports(server, mesa)] == []
    # the problema's own rating, which names nobody, stays as the miss moved it (up)
    assert phone.http.get(f"/api/problemas/{tried}").json()["rating"] > by_id(tried).rating
    assert laptop.post("/recover", {"name": name, "code": made["recovery_codes"][0]}).status_code
    # the name is free again
    assert laptop.sign_up(name)["account"]["id"] != made["account"]["id"]


async def _quarrel(server: ServerProcess, ana: Player, beto: Player) -> str:
    """Ana and Beto, both signed in, at a mesa: each reports the other's words, and Ana blocks
    Beto. The mesa's code."""
    code, clients = mesa_of(server, ana, beto)
    a, b, _ = clients
    for client in clients:
        await client.connect()
    await a.send({"type": "say", "text": "tramposo"})
    rude = await said(b, "tramposo")
    await b.send({"type": "say", "text": "¿y tú qué?"})
    answer = await said(a, "¿y tú qué?")
    await report(b, rude["id"])
    await report(a, answer["id"])
    await a.send({"type": "block", "person": person(b)})
    await a.expect("blocked", where=lambda m: m["people"] == [person(b)])
    for client in clients:
        await client.close()
    return code


def _problema_solved(player: Player) -> str:
    """A one-move problema solved by the signed-in ``player``: its id."""
    puzzle = next(p for p in load_set() if len(p.solution) == 1)
    got = player.http.post(
        f"/api/problemas/{puzzle.id}/attempt",
        json={"move": write_move(puzzle.hand().parse(puzzle.best))},
        headers={"X-CSRF-Token": player.csrf or ""},
    )
    assert got.status_code == 200 and got.json()["done"] and got.json()["correct"], got.text
    return puzzle.id


def _problema_tried(player: Player, skip: str = "") -> str:
    """One problema (not ``skip``) missed by the signed-in ``player`` (a wrong move ends the
    attempt at once): the problema's id."""
    served = player.http.get("/api/problemas/next", params={"skip": skip}).json()
    puzzle = by_id(served["id"])
    best = puzzle.values[puzzle.solution[0]]
    wrong = next(m for m, value in puzzle.values.items() if value < best)
    got = player.http.post(
        f"/api/problemas/{puzzle.id}/attempt",
        json={"move": write_move(puzzle.hand().parse(wrong))},  # as the page writes it
        headers={"X-CSRF-Token": player.csrf or ""},
    )
    assert got.status_code == 200 and got.json()["done"] and got.json()["signed_in"], got.text
    return puzzle.id


def _trainer_rows(server: ServerProcess, account: str) -> dict[str, int]:
    engine = sa.create_engine(server.database_url)
    try:
        with engine.connect() as connection:
            return {
                name: int(
                    connection.execute(
                        sa.select(sa.func.count())
                        .select_from(sa.table(name, sa.column("account")))
                        .where(sa.column("account") == account)
                    ).scalar_one()
                )
                for name in ("trainer_players", "trainer_attempts")
            }
    finally:
        engine.dispose()


def test_refusals_are_clear_and_bodies_are_capped(players: list[Player]) -> None:
    phone = players[0]
    not_json = phone.http.post(
        "/api/accounts/signin", content=b"{nope", headers={"content-type": "application/json"}
    )
    assert not_json.status_code == 400 and error_code(not_json) == "accounts.body_json"
    listed = phone.http.post("/api/accounts/signin", json=["Ana"])
    assert error_code(listed) == "accounts.request_object"
    deep = phone.http.post(
        "/api/accounts/signup",
        content=b'{"name": ' + b"[" * 40 + b"]" * 40 + b"}",
        headers={"content-type": "application/json"},
    )
    assert deep.status_code == 400 and error_code(deep) == "server.too_deep"
    big = phone.post("/signup", {"name": "Ana", "password": "x" * 20000})
    assert big.status_code == 413
    english = phone.http.post("/api/accounts/signin", json={"name": 3})
    assert english.json()["error"]["message_en"].startswith("The request lacks")


def test_an_expired_session_is_refused_and_cleared_at_the_next_sign_in(
    server: ServerProcess, players: list[Player]
) -> None:
    """A session past its date answers 401, and the next sign-in (anyone's) deletes its row:
    the sessions table does not keep every session ever opened."""
    phone, laptop, _ = players
    name = fresh_name()
    account = phone.sign_up(name)["account"]["id"]
    engine = sa.create_engine(server.database_url)
    sessions = sa.table("account_sessions", sa.column("account"), sa.column("expires_at"))
    try:
        with engine.begin() as db:
            db.execute(
                sa.update(sessions)
                .where(sessions.c.account == account)
                .values(expires_at=datetime(2000, 1, 1, tzinfo=UTC))
            )
        assert phone.get("/me").status_code == 401
        laptop.sign_up(fresh_name())
        with engine.connect() as db:
            left = db.execute(
                sa.select(sa.func.count())
                .select_from(sessions)
                .where(sessions.c.account == account)
            ).scalar_one()
        assert left == 0
    finally:
        engine.dispose()
