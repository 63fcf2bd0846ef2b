"""Request signing exactly as the service verifies it (docs/protocol.md §3 and §5.3).

The functions are public so that integrators can check their own signer against the fixed
vectors in ``sdk/vectors/signing-vectors.json``, which the TypeScript client and the service's
tests check too.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from typing import Dict, Mapping, Optional

TIMESTAMP_HEADER = "X-Svc-Timestamp"
NONCE_HEADER = "X-Svc-Nonce"
SIGNATURE_HEADER = "X-Svc-Signature"


def hmac_signing_input(method: str, path: str, timestamp: str, nonce: str, body: str) -> str:
    """The string V3 and SDK requests sign: METHOD, PATH, timestamp, nonce and the raw body, joined by LF."""
    return f"{method.upper()}\n{path}\n{timestamp}\n{nonce}\n{body}"


def hmac_signature(api_secret: str, method: str, path: str, timestamp: str, nonce: str, body: str) -> str:
    """``X-Svc-Signature``: lowercase hex HMAC-SHA256 of the signing input (UTF-8) under the api_secret."""
    message = hmac_signing_input(method, path, timestamp, nonce, body).encode("utf-8")
    return hmac.new(api_secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def signature_headers(
    api_secret: str,
    method: str,
    path: str,
    body: str,
    timestamp: Optional[str] = None,
    nonce: Optional[str] = None,
) -> Dict[str, str]:
    """The three signature headers of one request, with the current time and a fresh nonce unless given.

    Every attempt must be signed afresh: the service remembers nonces for 300 s and refuses a repeat.
    """
    timestamp = timestamp if timestamp is not None else str(unix_seconds())
    nonce = nonce if nonce is not None else new_nonce()
    return {
        TIMESTAMP_HEADER: timestamp,
        NONCE_HEADER: nonce,
        SIGNATURE_HEADER: hmac_signature(api_secret, method, path, timestamp, nonce, body),
    }


def md5_signing_input(fields: Mapping[str, str], legacy_secret: str) -> str:
    """The string legacy MD5 routes sign.

    Every non-empty field except ``sign``, sorted by name (code-unit order, as the service sorts),
    written ``k=v`` with the raw value (never URL-encoded), joined by ``&``, then ``&key=`` + secret.
    """
    names = sorted((name for name, value in fields.items() if name != "sign" and value != ""), key=_code_units)
    pairs = "&".join(f"{name}={fields[name]}" for name in names)
    return f"{pairs}&key={legacy_secret}"


def md5_sign(fields: Mapping[str, str], legacy_secret: str) -> str:
    """``sign``: lowercase hex MD5 of the legacy signing input (UTF-8)."""
    return hashlib.md5(md5_signing_input(fields, legacy_secret).encode("utf-8")).hexdigest()


def md5_signed_fields(fields: Mapping[str, str], legacy_secret: str) -> Dict[str, str]:
    """The fields plus ``t`` (now, unless the fields carry one) and their ``sign``."""
    with_time = {"t": str(unix_seconds()), **fields}
    return {**with_time, "sign": md5_sign(with_time, legacy_secret)}


def new_nonce() -> str:
    """24 hex characters: inside every nonce rule of the service (V3/SDK 8–96, Connect 1–96)."""
    return secrets.token_hex(12)


def unix_seconds() -> int:
    return int(time.time())


def _code_units(name: str) -> bytes:
    """Sort key in UTF-16 code-unit order, the order the service (JavaScript) sorts names in."""
    return name.encode("utf-16-be")
