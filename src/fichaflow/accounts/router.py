"""The accounts' HTTP endpoints (``/api/accounts/...``), served by ``fichaflow serve``.

A signed-in browser holds a session cookie (``HttpOnly``, ``SameSite=Lax``, ``Secure`` when the
request came over HTTPS, a trusted proxy's word included); every change it asks for with that
cookie carries the session's CSRF token in the ``X-CSRF-Token`` header, or is refused (403).
Beside it goes a hint the pages can read (``fichaflow_signed_in=1``, no secret in it): a page
asks ``GET /me`` only when it is there, so a guest's page never meets (and logs) a 401.
Signing in is rate limited per address (``--http-limit``) and per name (always). See
``docs/accounts.md``.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, Final

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse

from fichaflow.accounts import passwords, store
from fichaflow.accounts.tables import CREDENTIAL_LENGTH
from fichaflow.core.errors import FichaFlowError
from fichaflow.core.names import player_name
from fichaflow.http import ErrorRoute, HttpLimits, is_code, read_json, shown_code
from fichaflow.http.paths import CODE_CHARS
from fichaflow.storage import Database

PREFIX: Final = "/api/accounts"
COOKIE: Final = "fichaflow_session"
SIGNED_IN_HINT: Final = "fichaflow_signed_in"
"""Set and cleared with the session cookie, and readable by the pages' scripts: it says only that
this browser may have a session (web/js/api.js, ``maybeSignedIn``)."""
CSRF_HEADER: Final = "X-CSRF-Token"
MAX_BODY: Final = 16384
"""A passkey's registration (its attestation) is the biggest thing sent: a few kilobytes."""
MAX_TOKEN: Final = 64
"""A seat token is 43 characters (``secrets.token_urlsafe(32)``)."""
SIGNIN_PER_NAME: Final = 10
"""Sign-in attempts (password or recovery code) for one name in any sliding minute."""
STATUS: Final = {
    "accounts.signed_out": 401,
    "accounts.wrong": 401,
    "accounts.csrf": 403,
    "accounts.name_taken": 409,
    "accounts.person_taken": 409,
    "server.no_mesa": 404,
    "accounts.passkey_known": 409,
    "accounts.passkey_unknown": 401,
    "server.too_big_http": 413,
    "server.too_many": 429,
}


async def _body(request: Request) -> dict[str, Any]:
    data = await read_json(
        request,
        MAX_BODY,
        partial(FichaFlowError, "server.too_big_http", limit=MAX_BODY),
        partial(FichaFlowError, "accounts.body_json"),
    )
    if not isinstance(data, dict):
        raise FichaFlowError("accounts.request_object")
    return data


def _text(data: dict[str, Any], field: str) -> str:
    value = data.get(field)
    if not isinstance(value, str):
        raise FichaFlowError("accounts.field", field=field)
    return value


def _name(data: dict[str, Any]) -> str:
    return player_name(_text(data, "name"))


def json_body(*required: str, **fields: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI ``requestBody`` of an endpoint that reads its JSON itself (so that a bad body
    gets this service's own error): its fields, for client generators and the HTTP fuzzer."""
    schema = {"type": "object", "properties": fields, "required": list(required)}
    content = {"application/json": {"schema": schema}}
    return {"requestBody": {"required": bool(required), "content": content}}


TEXT: Final = {"type": "string"}
NAME: Final = {"type": "string", "minLength": 1, "maxLength": 30}
PASSWORD: Final = {"type": "string", "minLength": 8, "maxLength": 256}
CREDENTIAL: Final = {"type": "object", "properties": {"id": TEXT, "type": TEXT}}


class AccountsRoute(ErrorRoute):
    statuses = STATUS


PersonOf = Callable[[str, str], Awaitable[tuple[int, str]]]
"""Who holds a seat token at a mesa: the game's answer (its person's id and name), handed in
by ``app.py`` (the services do not import each other)."""
ForgetPeople = Callable[[list[tuple[str, int]]], Awaitable[None]]
"""The game renames a deleted account's people (mesa code, person id) «jugador borrado»."""
ClaimPerson = Callable[[str, int, str], Awaitable[None]]
"""The game makes the person (mesa code, person id) the account's at that mesa."""


class Accounts:
    """The accounts' side of the database, as the endpoints use it."""

    def __init__(
        self,
        database: Database,
        limits: HttpLimits,
        person_of: PersonOf,
        forget_people: ForgetPeople,
        claim_person: ClaimPerson | None = None,
        forget_rows: Sequence[store.Forget] = (),
        export_rows: Sequence[store.Export] = (),
        withdraw_rows: Sequence[store.Forget] = (),
    ) -> None:
        self.withdraw_rows = tuple(withdraw_rows)  # what goes when problemas are not allowed
        self.person_of = person_of
        self.forget_people = forget_people
        self.claim_person = claim_person
        self.forget_rows = tuple(forget_rows)  # other services' rows of a deleted account
        self.export_rows = tuple(export_rows)  # and of an account's export
        self.db = database
        self.limits = limits  # per address, the server's --http-limit
        self.per_name = HttpLimits(SIGNIN_PER_NAME)

    async def run(self, fn: Any, *args: Any) -> Any:
        return await self.db.run(fn, self.db.engine, *args)

    async def session(self, request: Request, change: bool = True) -> store.Session:
        """The request's session; for a change (``change``), only with its CSRF token."""
        token = request.cookies.get(COOKIE)
        found: store.Session | None = await self.run(store.session, token) if token else None
        if found is None:
            raise FichaFlowError("accounts.signed_out")
        if change:
            sent = request.headers.get(CSRF_HEADER, "")
            if not secrets.compare_digest(sent.encode(), found.csrf.encode()):
                raise FichaFlowError("accounts.csrf")
        return found

    async def challenge(self, data: dict[str, Any], purpose: str) -> store.Challenge:
        """The live ceremony the body names (``challenge``), begun for ``purpose``."""
        key = data.get("challenge")
        found: store.Challenge | None = None
        if isinstance(key, str) and is_code(key):
            found = await self.run(store.challenge, key, purpose)
        if found is None:
            raise FichaFlowError("accounts.challenge")
        return found

    async def account_of(self, request: Request) -> tuple[str, str] | None:
        """The signed-in player behind a request to the game (id and name), or None: a guest.
        Only a request that carries the session's CSRF token counts, so another site cannot
        make a signed-in browser sit down as its player."""
        if COOKIE not in request.cookies or CSRF_HEADER not in request.headers:
            return None
        try:
            found = await self.session(request)
        except FichaFlowError:
            return None
        return found.account.id, found.account.name

    async def keep_person(self, account: str, code: str, person: int, name: str) -> None:
        """The person who joined a mesa signed in is the account's there (the account keeps
        the mesa; deleting it makes the person «jugador borrado»)."""
        await self.run(store.link_person, account, code, person, name)

    def signin_allowed(self, request: Request, name: str) -> None:
        self.limits.check("signin", request)
        self.per_name.check("signin", request, key=store.name_key(name))


def account_json(account: store.Account) -> dict[str, Any]:
    return {
        "id": account.id,
        "name": account.name,
        "created_at": account.created_at.isoformat(timespec="seconds"),
        "password": account.password_hash is not None,
    }


def signed_in(
    request: Request,
    account: store.Account,
    opened: store.NewSession,
    status: int = 200,
    **more: Any,
) -> JSONResponse:
    """The answer that opens a session: the account, the CSRF token, and the cookie."""
    answer = JSONResponse(
        {"account": account_json(account), "csrf": opened.csrf, **more}, status_code=status
    )
    answer.set_cookie(
        COOKIE,
        opened.token,
        max_age=store.SESSION_DAYS * 24 * 3600,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    answer.set_cookie(
        SIGNED_IN_HINT,
        "1",
        max_age=store.SESSION_DAYS * 24 * 3600,
        path="/",
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return answer


def signed_off(request: Request, body: dict[str, Any]) -> JSONResponse:
    answer = JSONResponse(body)
    answer.delete_cookie(
        COOKIE, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )
    answer.delete_cookie(
        SIGNED_IN_HINT, path="/", samesite="lax", secure=request.url.scheme == "https"
    )
    return answer


def build_router(accounts: Accounts) -> APIRouter:
    router = APIRouter(prefix=PREFIX, route_class=AccountsRoute)

    @router.post(
        "/signup",
        status_code=201,
        openapi_extra=json_body("name", "password", name=NAME, password=PASSWORD),
    )
    async def sign_up(request: Request) -> Any:
        """A new account with a password; the answer shows its recovery codes, once."""
        data = await _body(request)
        name = _name(data)
        password = passwords.check_shape(data.get("password"))
        accounts.limits.check("create", request)
        if await accounts.run(store.find_by_name, name) is not None:
            raise FichaFlowError("accounts.name_taken", name=name)
        hashed = await passwords.hash_password(password)
        codes = store.new_recovery_codes()
        try:
            account, opened = await accounts.run(store.create_account, name, hashed, codes)
        except store.NameTaken:
            raise FichaFlowError("accounts.name_taken", name=name) from None
        return signed_in(request, account, opened, 201, recovery_codes=codes)

    @router.post(
        "/signin", openapi_extra=json_body("name", "password", name=NAME, password=PASSWORD)
    )
    async def sign_in(request: Request) -> Any:
        data = await _body(request)
        name = _name(data)
        password = _text(data, "password")
        accounts.signin_allowed(request, name)
        account = await accounts.run(store.find_by_name, name)
        hashed = account.password_hash if account is not None else None
        if len(password) > passwords.PASSWORD_MAX or not await passwords.verify(password, hashed):
            raise FichaFlowError("accounts.wrong")
        assert account is not None  # verify() never matches a missing account
        return signed_in(request, account, await accounts.run(store.sign_in, account.id))

    @router.post(
        "/recover", openapi_extra=json_body("name", "code", name=NAME, code=TEXT, password=PASSWORD)
    )
    async def recover(request: Request) -> Any:
        """Sign in with a one-time recovery code (used up), optionally setting a new password;
        every other session of the account ends."""
        data = await _body(request)
        name = _name(data)
        code = store.normal_code(_text(data, "code"))
        new = data.get("password")
        hashed = None
        if new is not None:
            hashed = await passwords.hash_password(passwords.check_shape(new))
        accounts.signin_allowed(request, name)
        account = await accounts.run(store.find_by_name, name)
        opened = await accounts.run(store.recover, account.id, code, hashed) if account else None
        if account is None or opened is None:
            raise FichaFlowError("accounts.wrong_code")
        if hashed is not None:
            account = await accounts.run(store.find_by_name, name)
        left = await accounts.run(store.codes_left, account.id)
        return signed_in(request, account, opened, codes_left=left)

    @router.get("/me")
    async def me(request: Request) -> Any:
        """Who is signed in, and the token the page sends with its changes."""
        found = await accounts.session(request, change=False)
        left = await accounts.run(store.codes_left, found.account.id)
        passkeys = len(await accounts.run(store.passkey_ids, found.account.id))
        allowed = await accounts.run(store.problemas_allowed, found.account.id)
        return {
            "account": account_json(found.account),
            "csrf": found.csrf,
            "codes_left": left,
            "passkeys": passkeys,
            "problemas": allowed,
        }

    @router.post("/problemas", openapi_extra=json_body("allowed", allowed={"type": "boolean"}))
    async def allow_problemas(request: Request) -> Any:
        """Allow (``{"allowed": true}``) or stop allowing the player's partidas to be used for
        problemas; stopping takes away the problemas mined from them (docs/problemas.md)."""
        found = await accounts.session(request)
        data = await _body(request)
        allowed = data.get("allowed")
        if not isinstance(allowed, bool):
            raise FichaFlowError("accounts.problemas_allowed")
        await accounts.run(store.allow_problemas, found.account.id, allowed, accounts.withdraw_rows)
        return {"problemas": allowed}

    @router.post("/signout")
    async def sign_out(request: Request) -> Any:
        found = await accounts.session(request)
        await accounts.run(store.sign_out, found.token_hash)
        return signed_off(request, {"signed_out": 1})

    @router.post("/signout-everywhere")
    async def sign_out_everywhere(request: Request) -> Any:
        """Every session of the account ends, this one too."""
        found = await accounts.session(request)
        count = await accounts.run(store.sign_out_everywhere, found.account.id)
        return signed_off(request, {"signed_out": count})

    @router.post("/password", openapi_extra=json_body("password", password=PASSWORD))
    async def set_password(request: Request) -> Any:
        """Set or change the account's password (an account made with a passkey may add one)."""
        found = await accounts.session(request)
        data = await _body(request)
        hashed = await passwords.hash_password(passwords.check_shape(data.get("password")))
        await accounts.run(store.set_password, found.account.id, hashed)
        return {"password": True}

    @router.post("/recovery-codes")
    async def new_codes(request: Request) -> Any:
        """Ten new recovery codes, shown once; the old ones stop working."""
        found = await accounts.session(request)
        codes = store.new_recovery_codes()
        await accounts.run(store.replace_recovery_codes, found.account.id, codes)
        return {"recovery_codes": codes}

    @router.post("/mesas", openapi_extra=json_body("mesa", "token", mesa=TEXT, token=TEXT))
    async def keep_mesa(request: Request) -> Any:
        """The guest who signs up keeps the mesa they sat at: the person their seat token names
        (``mesa`` and ``token``, as the game gave them) becomes the account's."""
        found = await accounts.session(request)
        data = await _body(request)
        code, token = _text(data, "mesa"), _text(data, "token")
        if not is_code(code):
            raise FichaFlowError("server.no_mesa", mesa=shown_code(code))
        if not token or len(token) > MAX_TOKEN or not set(token) <= CODE_CHARS:
            raise FichaFlowError("server.bad_token")
        person, name = await accounts.person_of(code, token)
        if not await accounts.run(store.link_person, found.account.id, code, person, name):
            raise FichaFlowError("accounts.person_taken", name=name)
        if accounts.claim_person is not None:  # they play signed in from now on
            await accounts.claim_person(code, person, found.account.id)
        return {"mesas": await accounts.run(store.linked, found.account.id)}

    @router.get("/mesas")
    async def kept_mesas(request: Request) -> Any:
        """The mesas' people that are the signed-in account's."""
        found = await accounts.session(request, change=False)
        return {"mesas": await accounts.run(store.linked, found.account.id)}

    @router.get("/export")
    async def export(request: Request) -> Any:
        """Everything kept about the signed-in player, as a JSON file."""
        found = await accounts.session(request, change=False)
        data = await accounts.run(
            store.export, found.account, found.token_hash, accounts.export_rows
        )
        return JSONResponse(
            data, headers={"Content-Disposition": 'attachment; filename="fichaflow-cuenta.json"'}
        )

    @router.delete("/me")
    async def delete(request: Request) -> Any:
        """Delete the account and everything of it; the page offers the export first."""
        found = await accounts.session(request)
        people = await accounts.run(store.delete_account, found.account.id, accounts.forget_rows)
        # The account is gone whatever follows; its people's new name is the game's to store.
        await accounts.forget_people(people)
        return signed_off(request, {"deleted": True, "mesas": len(people)})

    @router.post("/passkeys/signup/options", openapi_extra=json_body("name", name=NAME))
    async def passkey_signup_options(request: Request) -> Any:
        """Begin making an account with a passkey: what the browser is to ask its
        authenticator, and the ceremony's ``challenge`` to send back with the answer."""
        from fichaflow.accounts import passkeys  # webauthn: imported at the first use

        data = await _body(request)
        name = _name(data)
        who = passkeys.party(request)
        accounts.limits.check("create", request)
        if await accounts.run(store.find_by_name, name) is not None:
            raise FichaFlowError("accounts.name_taken", name=name)
        account, raw = store.new_account_id(), passkeys.new_challenge()
        options = passkeys.registration_options(who, raw, account, name, [])
        key = await accounts.run(store.new_challenge, "signup", passkeys.encode(raw), name, account)
        return {"challenge": key, "options": options}

    @router.post(
        "/passkeys/signup",
        status_code=201,
        openapi_extra=json_body("challenge", "credential", challenge=TEXT, credential=CREDENTIAL),
    )
    async def passkey_signup(request: Request) -> Any:
        """The authenticator's new passkey: the account is made with it, signed in, and its
        recovery codes shown once."""
        from fichaflow.accounts import passkeys  # webauthn: imported at the first use

        data = await _body(request)
        who = passkeys.party(request)
        sent = passkeys.credential(data)
        begun = await accounts.challenge(data, "signup")
        assert begun.name is not None and begun.account is not None
        made = passkeys.verify_registration(who, begun.challenge, sent)
        codes = store.new_recovery_codes()
        key = store.Passkey(made.id, begun.account, made.public_key, made.sign_count)
        try:
            account, opened = await accounts.run(
                store.create_account, begun.name, None, codes, key, begun.id
            )
        except store.NameTaken:
            raise FichaFlowError("accounts.name_taken", name=begun.name) from None
        return signed_in(request, account, opened, 201, recovery_codes=codes)

    @router.post("/passkeys/signin/options")
    async def passkey_signin_options(request: Request) -> Any:
        """Begin signing in with a passkey; no name is needed (the passkey knows it)."""
        from fichaflow.accounts import passkeys  # webauthn: imported at the first use

        await _body(request)
        who = passkeys.party(request)
        accounts.limits.check("signin", request)
        raw = passkeys.new_challenge()
        options = passkeys.authentication_options(who, raw)
        key = await accounts.run(store.new_challenge, "signin", passkeys.encode(raw), None, None)
        return {"challenge": key, "options": options}

    @router.post(
        "/passkeys/signin",
        openapi_extra=json_body("challenge", "credential", challenge=TEXT, credential=CREDENTIAL),
    )
    async def passkey_signin(request: Request) -> Any:
        from fichaflow.accounts import passkeys  # webauthn: imported at the first use

        data = await _body(request)
        who = passkeys.party(request)
        sent = passkeys.credential(data)
        begun = await accounts.challenge(data, "signin")
        key = None
        if len(sent["id"]) <= CREDENTIAL_LENGTH and set(sent["id"]) <= CODE_CHARS:
            key = await accounts.run(store.passkey, sent["id"])
        if key is None:
            raise FichaFlowError("accounts.passkey_unknown")
        count = passkeys.verify_authentication(
            who, begun.challenge, sent, key.public_key, key.sign_count
        )
        opened = await accounts.run(store.passkey_sign_in, key, count, begun.id)
        account = await accounts.run(store.account, key.account)
        return signed_in(request, account, opened)

    @router.post("/passkeys/add/options")
    async def passkey_add_options(request: Request) -> Any:
        """Begin adding a passkey to the signed-in account (another phone, a security key)."""
        from fichaflow.accounts import passkeys  # webauthn: imported at the first use

        found = await accounts.session(request)
        await _body(request)
        who = passkeys.party(request)
        known = await accounts.run(store.passkey_ids, found.account.id)
        raw = passkeys.new_challenge()
        options = passkeys.registration_options(
            who, raw, found.account.id, found.account.name, known
        )
        key = await accounts.run(
            store.new_challenge, "add", passkeys.encode(raw), None, found.account.id
        )
        return {"challenge": key, "options": options}

    @router.post(
        "/passkeys/add",
        openapi_extra=json_body("challenge", "credential", challenge=TEXT, credential=CREDENTIAL),
    )
    async def passkey_add(request: Request) -> Any:
        from fichaflow.accounts import passkeys  # webauthn: imported at the first use

        found = await accounts.session(request)
        data = await _body(request)
        who = passkeys.party(request)
        sent = passkeys.credential(data)
        begun = await accounts.challenge(data, "add")
        if begun.account != found.account.id:
            raise FichaFlowError("accounts.challenge")
        made = passkeys.verify_registration(who, begun.challenge, sent)
        key = store.Passkey(made.id, found.account.id, made.public_key, made.sign_count)
        if not await accounts.run(store.add_passkey, key, begun.id):
            raise FichaFlowError("accounts.passkey_known")
        return {"passkeys": len(await accounts.run(store.passkey_ids, found.account.id))}

    return router


def install(
    app: FastAPI,
    database: Database,
    limits: HttpLimits,
    person_of: PersonOf,
    forget_people: ForgetPeople,
    claim_person: ClaimPerson | None = None,
    forget_rows: Sequence[store.Forget] = (),
    export_rows: Sequence[store.Export] = (),
    withdraw_rows: Sequence[store.Forget] = (),
) -> Accounts:
    """Add the accounts' endpoints to the server's app (before its static files); ``person_of``
    is the game's word on who holds a seat token, ``forget_people`` renames a deleted account's
    people at the mesas, ``forget_rows`` delete other services' rows of a deleted account and
    ``export_rows`` add them to its export (each service that keeps rows of an account gives
    both); ``withdraw_rows`` delete what was made of an account's partidas when the player stops
    allowing them to be used for problemas."""
    accounts = Accounts(
        database,
        limits,
        person_of,
        forget_people,
        claim_person,
        forget_rows,
        export_rows,
        withdraw_rows,
    )
    app.include_router(build_router(accounts))
    app.state.accounts = accounts
    return accounts
