"""Passkeys: the WebAuthn ceremonies, through the ``webauthn`` library.

The relying party is the page's own site: its origin is the request's ``Origin`` (which the
server's ``SameOrigin`` rule has already let through: the server's own origin, or one of
``--allowed-origin``/``--public-url``), or the server's own address when a client sends none;
its RP ID is that origin's host name. An IP address is no RP ID (browsers refuse it), and away
from ``localhost`` a browser offers passkeys only over HTTPS: both are refused up front with
``accounts.origin``, so a player reads why instead of a browser's bare failure.
"""

from __future__ import annotations

import ipaddress
import json
import secrets
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.requests import Request
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from fichaflow.core.errors import FichaFlowError

RP_NAME: Final = "FichaFlow"
TIMEOUT_MS: Final = 120_000
BAD_INPUT: Final = (WebAuthnException, ValueError, TypeError, KeyError, AttributeError)
"""What the library raises on a credential it cannot read or check (it parses what the client
sent): each is the client's mistake, refused as ``accounts.passkey``."""


@dataclass(frozen=True, slots=True)
class Party:
    """Who asks: the page's origin, exactly as the browser writes it, and its RP ID."""

    origin: str
    rp_id: str


def party(request: Request) -> Party:
    origin = request.headers.get("origin") or f"{request.url.scheme}://{request.url.netloc}"
    try:
        parts = urlsplit(origin)
        host = (parts.hostname or "").lower()
    except ValueError:
        raise FichaFlowError("accounts.origin") from None
    local = host == "localhost" or host.endswith(".localhost")
    if not host or _is_ip(host) or (parts.scheme != "https" and not local):
        raise FichaFlowError("accounts.origin")
    return Party(origin, host)


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return True


def new_challenge() -> bytes:
    return secrets.token_bytes(32)


def encode(raw: bytes) -> str:
    return bytes_to_base64url(raw)


def registration_options(
    who: Party, challenge: bytes, account: str, name: str, known: list[str]
) -> dict[str, Any]:
    """What the browser's ``navigator.credentials.create`` is asked (as JSON): a discoverable
    passkey for ``account``, none of the ``known`` ones again."""
    options = generate_registration_options(
        rp_id=who.rp_id,
        rp_name=RP_NAME,
        user_id=account.encode(),
        user_name=name,
        user_display_name=name,
        challenge=challenge,
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(k)) for k in known
        ],
    )
    out: dict[str, Any] = json.loads(options_to_json(options))
    return out


def authentication_options(who: Party, challenge: bytes) -> dict[str, Any]:
    """What ``navigator.credentials.get`` is asked: any passkey of this site (no name typed)."""
    options = generate_authentication_options(
        rp_id=who.rp_id,
        challenge=challenge,
        timeout=TIMEOUT_MS,
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    out: dict[str, Any] = json.loads(options_to_json(options))
    return out


@dataclass(frozen=True, slots=True)
class NewKey:
    id: str
    public_key: bytes
    sign_count: int


def credential(data: dict[str, Any]) -> dict[str, Any]:
    """The browser's credential (``PublicKeyCredential.toJSON()``) from a request's body."""
    value = data.get("credential")
    if not isinstance(value, dict) or not isinstance(value.get("id"), str):
        raise FichaFlowError("accounts.field", field="credential")
    return value


def verify_registration(who: Party, challenge: str, sent: dict[str, Any]) -> NewKey:
    try:
        checked = verify_registration_response(
            credential=sent,
            expected_challenge=base64url_to_bytes(challenge),
            expected_origin=who.origin,
            expected_rp_id=who.rp_id,
            require_user_verification=False,
        )
    except BAD_INPUT:
        raise FichaFlowError("accounts.passkey") from None
    return NewKey(encode(checked.credential_id), checked.credential_public_key, checked.sign_count)


def verify_authentication(
    who: Party, challenge: str, sent: dict[str, Any], public_key: bytes, sign_count: int
) -> int:
    """The passkey's new signature count, once it is shown to have signed ``challenge``."""
    try:
        checked = verify_authentication_response(
            credential=sent,
            expected_challenge=base64url_to_bytes(challenge),
            expected_rp_id=who.rp_id,
            expected_origin=who.origin,
            credential_public_key=public_key,
            credential_current_sign_count=sign_count,
            require_user_verification=False,
        )
    except BAD_INPUT:
        raise FichaFlowError("accounts.passkey") from None
    return int(checked.new_sign_count)
