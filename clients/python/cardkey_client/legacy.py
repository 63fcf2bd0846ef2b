"""``client.legacy``: the legacy V1 card routes, MD5-signed with the legacy_secret, plain or through
the encrypted aggregate entry (docs/protocol.md 5.5)."""

from __future__ import annotations

import dataclasses
import json
import urllib.parse
from typing import TYPE_CHECKING, Any, Optional

from .errors import ClientErrorCode
from .legacy_transport import LegacyTransport, open_text, seal_legacy_request
from .result import Result
from .signing import md5_signed_fields, new_nonce
from .transport import Call, Request
from .trust import bound, card_named
from .types import LegacyLoginData, LegacyUnbindData

if TYPE_CHECKING:
    from .client import Client

_HEADERS = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}


class LegacyRoutes:
    """``client.legacy``. With ``legacy_transport`` every call goes to ``/api/app`` as ``app`` in
    clear plus the signed fields (with the canonical ``api``) sealed in ``data``; the answer's
    ``data`` is opened, so results look the same either way."""

    def __init__(self, client: Client, program_id: str, legacy_secret: Optional[str], transport: Optional[LegacyTransport]) -> None:
        self._client = client
        self._program_id = program_id
        self._secret = legacy_secret
        self._transport = transport

    def card_login(self, card_key: str, machine_id: str) -> Result[LegacyLoginData]:
        """``POST /api/card_login`` (``card_login``): a compatible token, no session; retried on a network failure."""
        return self._card_call("/api/card_login", "card_login", card_key, machine_id, idempotent=True)

    def unbind(self, card_key: str, machine_id: str) -> Result[LegacyUnbindData]:
        """``POST /api/unbind_machine`` (``card_unbind``): frees this device's slot; never retried (each unbind may deduct time)."""
        return self._card_call("/api/unbind_machine", "card_unbind", card_key, machine_id, idempotent=False)

    def _card_call(self, path: str, api: str, card_key: str, machine_id: str, idempotent: bool) -> Result[Any]:
        secret = self._secret
        if not secret:
            raise ValueError("the legacy helpers need legacy_secret")
        transport = self._transport
        fields = {"app": self._program_id, "kami": card_key, "imei": machine_id}

        def build() -> Request:
            if transport is None:
                signed = md5_signed_fields({**fields, "nonce": new_nonce()}, secret)
                return Request(headers=dict(_HEADERS), body=urllib.parse.urlencode(signed).encode("utf-8"), nonce=signed["nonce"])
            signed = md5_signed_fields({"api": api, **fields, "nonce": new_nonce()}, secret)
            body = urllib.parse.urlencode({"app": self._program_id, "data": seal_legacy_request(transport, signed)})
            # The service signs its answer before it opens ``data``, so with no clear nonce: REQUEST_NONCE
            # is empty. The fresh nonce inside the ciphertext still binds the answer, through REQUEST_DIGEST.
            return Request(headers=dict(_HEADERS), body=body.encode("utf-8"), nonce="")

        result = self._client._call("legacy", Call("POST", "/api/app" if transport else path, build, idempotent=idempotent))
        return bound(_open_data(result, transport), card_named(machine_id, card_key))


def _open_data(result: Result[Any], transport: Optional[LegacyTransport]) -> Result[Any]:
    """Opens a sealed success ``data``; one that does not open with the key is UNEXPECTED_RESPONSE, never a success."""
    sealed = result.body.get("data") if result.body else None
    if transport is None or not result.success or not isinstance(sealed, str):
        return result
    try:
        data = json.loads(open_text(transport, sealed))
    except (ValueError, UnicodeDecodeError):
        return Result(
            success=False,
            code=ClientErrorCode.UNEXPECTED_RESPONSE,
            message="The answer's data does not open with the transport key (wrong legacy_transport?)",
            request_id=result.request_id,
            http_status=result.http_status,
        )
    return dataclasses.replace(result, data=data, body={**(result.body or {}), "data": data})
