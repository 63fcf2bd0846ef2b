"""Signed answers (docs/protocol.md §6, decisions §15): is this answer really from the service?

A cracked program usually talks to a fake server (a local proxy answering ``{"status": true}``).
With the program's response keys pinned, the client accepts only answers carrying a valid
Ed25519 signature over *this* request's method, path and nonce, the status and the body bytes.
"""

from __future__ import annotations

import re
import time
from typing import Mapping, Optional

from . import ed25519
from ._values import b64url_decode
from .result import RawAnswer

#: Response headers of a signed answer (lower case, as the transport keys them).
RESPONSE_TIMESTAMP_HEADER = "x-svc-response-timestamp"
RESPONSE_KEY_HEADER = "x-svc-response-key"
RESPONSE_SIGNATURE_HEADER = "x-svc-response-signature"

_TIMESTAMP = re.compile(r"[0-9]{1,12}")


def response_signing_input(method: str, path: str, nonce: str, timestamp: str, status: int, body: bytes) -> bytes:
    """The bytes the service signs: ``svc-response-v1\\nMETHOD\\nPATH\\nNONCE\\nTIMESTAMP\\nSTATUS\\n`` + body."""
    head = f"svc-response-v1\n{method}\n{path}\n{nonce}\n{timestamp}\n{status}\n"
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
    keys: Mapping[str, str],
    max_skew_seconds: float = 300,
    now: Optional[float] = None,
) -> Optional[str]:
    """Why the answer cannot be trusted, or None when it can.

    It must carry the three headers, name a pinned key (kid → base64url public key), be signed
    within ``max_skew_seconds`` of ``now``, and its signature must cover exactly this request's
    method, path (without the query) and nonce (empty when none was sent), the status and the body.
    """
    timestamp = answer.header(RESPONSE_TIMESTAMP_HEADER)
    kid = answer.header(RESPONSE_KEY_HEADER)
    signature = answer.header(RESPONSE_SIGNATURE_HEADER)
    if not timestamp or not kid or not signature:
        return "the answer is not signed"
    public_key = keys.get(kid)
    if not public_key:
        return f"the answer is signed with an unknown key {kid}"
    current = time.time() if now is None else now
    if not _TIMESTAMP.fullmatch(timestamp) or abs(current - int(timestamp)) > max_skew_seconds:
        return "the answer signature is outside the time window"
    signed = response_signing_input(method, path, nonce, timestamp, answer.status, answer.body)
    return None if _verifies(public_key, signed, signature) else "the answer signature does not verify"


def _verifies(public_key: str, message: bytes, signature: str) -> bool:
    try:
        return ed25519.verify(public_key_bytes(public_key), message, b64url_decode(signature))
    except ValueError:
        return False
