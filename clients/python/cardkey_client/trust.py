"""Signed answers (docs/protocol.md §6, decisions §17): is this answer really from the service?

A cracked program usually talks to a fake server (a local proxy answering ``{"status": true}``),
or relays its request with another, valid card. With the program's response keys pinned, the
client accepts only answers carrying a valid Ed25519 signature (version 2) over *this* request's
method, path, nonce and bytes sent, the status and the body bytes.
"""

from __future__ import annotations

import hashlib
import re
import time
from typing import Any, Mapping, NamedTuple, Optional, Sequence, Union

from . import ed25519
from ._values import b64url_decode
from .errors import ClientErrorCode
from .result import RawAnswer, Result

#: Response headers of a signed answer (lower case, as the transport keys them).
RESPONSE_TIMESTAMP_HEADER = "x-svc-response-timestamp"
RESPONSE_KEY_HEADER = "x-svc-response-key"
RESPONSE_SIGNATURE_HEADER = "x-svc-response-signature"
RESPONSE_VERSION_HEADER = "x-svc-response-version"
#: The only signed string believed (decisions §17); v1 (§15) did not bind the request and is refused.
RESPONSE_SIGNATURE_VERSION = "2"

_TIMESTAMP = re.compile(r"[0-9]{1,12}")


def request_digest_input(method: str, target: str, body: Optional[bytes] = None) -> bytes:
    """What REQUEST_DIGEST hashes, as the service reads the request: the body bytes sent, or for a
    GET or HEAD, or a request with no body, the raw query string of ``target`` without ``?``."""
    if body and method.upper() not in ("GET", "HEAD"):
        return body
    _, _, query = target.partition("?")
    return query.encode("utf-8")


def request_digest(sent: bytes) -> str:
    """REQUEST_DIGEST: lowercase hex SHA-256 of what was sent."""
    return hashlib.sha256(sent).hexdigest()


def response_signing_input(method: str, path: str, nonce: str, sent: bytes, timestamp: str, status: int, body: bytes) -> bytes:
    """The bytes the service signs (decisions §17):
    ``svc-response-v2\\nMETHOD\\nPATH\\nNONCE\\nTIMESTAMP\\nSTATUS\\nREQUEST_DIGEST\\n`` + body,
    REQUEST_DIGEST the digest of ``sent`` (``request_digest_input``)."""
    head = f"svc-response-v2\n{method}\n{path}\n{nonce}\n{timestamp}\n{status}\n{request_digest(sent)}\n"
    return head.encode("utf-8") + body


def public_key_bytes(public_key: str) -> bytes:
    """The 32 raw bytes of a published key (base64url); ValueError for anything else."""
    raw = b64url_decode(public_key)
    if len(raw) != 32:
        raise ValueError("an Ed25519 public key is 32 bytes")
    return raw


def answer_distrust(
    answer: RawAnswer,
    method: str,
    path: str,
    nonce: str,
    sent: bytes,
    keys: Mapping[str, str],
    max_skew_seconds: float = 300,
    now: Optional[float] = None,
) -> Optional[str]:
    """Why the answer cannot be trusted, or None when it can.

    It must carry the signing headers with version 2, name a pinned key (kid → base64url public
    key), be signed within ``max_skew_seconds`` of ``now``, and its signature must cover exactly
    this request's method, path (without the query), nonce (empty when none was sent) and bytes
    ``sent`` (``request_digest_input``), the status and the body.
    """
    timestamp = answer.header(RESPONSE_TIMESTAMP_HEADER)
    kid = answer.header(RESPONSE_KEY_HEADER)
    signature = answer.header(RESPONSE_SIGNATURE_HEADER)
    if not timestamp or not kid or not signature:
        return "the answer is not signed"
    version = answer.header(RESPONSE_VERSION_HEADER)
    if version != RESPONSE_SIGNATURE_VERSION:
        return f"the answer is not signed in version {RESPONSE_SIGNATURE_VERSION} (X-Svc-Response-Version: {version or 'none'})"
    public_key = keys.get(kid)
    if not public_key:
        return f"the answer is signed with an unknown key {kid}"
    current = time.time() if now is None else now
    if not _TIMESTAMP.fullmatch(timestamp) or abs(current - int(timestamp)) > max_skew_seconds:
        return "the answer signature is outside the time window"
    signed = response_signing_input(method, path, nonce, sent, timestamp, answer.status, answer.body)
    return None if _verifies(public_key, signed, signature) else "the answer signature does not verify"


def _verifies(public_key: str, message: bytes, signature: str) -> bool:
    try:
        return ed25519.verify(public_key_bytes(public_key), message, b64url_decode(signature))
    except ValueError:
        return False


class Named(NamedTuple):
    """A field of a success's ``data`` that must hold what this client sent; ``required``: absent is a mismatch too."""

    field: str
    value: Union[str, int]
    what: str
    required: bool


def card_named(machine_id: str, card_key: str) -> Sequence[Named]:
    """A card answer names the device sent (``machine_code``) and, where it carries it, the card (``code``)."""
    return (Named("machine_code", machine_id, "device", True), Named("code", card_key, "card", False))


def bound(result: Result[Any], named: Sequence[Named]) -> Result[Any]:
    """decisions §17: a success naming another device, card or session owner than this client's is
    not the answer to what it sent (a relay swapped them): UNTRUSTED_RESPONSE, never a success. The
    message names what differs, never the values."""
    if not result.success:
        return result
    data = result.data if isinstance(result.data, Mapping) else {}
    for expected in named:
        found = data.get(expected.field)
        if expected.required if found is None else not _same(found, expected.value):
            return Result(
                success=False,
                code=ClientErrorCode.UNTRUSTED_RESPONSE,
                message=f"Untrusted answer: it is for another {expected.what} than the one sent",
                request_id=result.request_id,
                http_status=result.http_status,
            )
    return result


def _same(found: Any, value: Union[str, int]) -> bool:
    """Equal and of the same type (in Python ``True == 1``)."""
    return type(found) is type(value) and found == value
