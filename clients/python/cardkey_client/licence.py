"""Offline licences (docs/protocol.md §6.3): keep running through an outage, never through a refusal.

A licence from ``/api/v1/cards/checkout`` is ``base64url(payload) + "." + base64url(signature)``,
the signature Ed25519 over ``svc-licence-v1.`` + the encoded payload. It is checked without a
network, with the same pinned keys as signed answers.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional

from . import ed25519
from ._values import as_integer, as_number, b64url_decode
from .trust import public_key_bytes


@dataclass(frozen=True)
class LicenceCheck:
    """``valid`` with the decoded ``payload``, or not valid with a ``reason``."""

    valid: bool
    payload: Optional[Dict[str, Any]] = None
    reason: Optional[str] = None


def verify_licence(
    licence: str,
    keys: Mapping[str, str],
    program_id: str,
    machine_id: str,
    card_key: Optional[str] = None,
    now: Optional[float] = None,
) -> LicenceCheck:
    """Checks the signature with a pinned key (the payload's kid), the program, this machine, the
    card (when ``card_key`` is given) and that ``valid_until`` (Unix seconds) has not passed."""
    parts = licence.split(".") if isinstance(licence, str) else []
    if len(parts) != 2 or not parts[0] or not parts[1]:
        return _refused("not a licence")
    encoded, signature = parts
    try:
        payload = json.loads(b64url_decode(encoded).decode("utf-8"))
        raw_signature = b64url_decode(signature)
    except ValueError:
        return _refused("not a licence")
    if not isinstance(payload, dict) or as_number(payload.get("valid_until")) is None:
        return _refused("not a licence")
    kid = payload.get("kid")
    public_key = keys.get(kid) if isinstance(kid, str) else None
    if not public_key:
        return _refused(f"signed with an unknown key {kid}")
    try:
        genuine = ed25519.verify(public_key_bytes(public_key), f"svc-licence-v1.{encoded}".encode("utf-8"), raw_signature)
    except ValueError:
        genuine = False
    if not genuine:
        return _refused("the signature does not verify")
    if as_integer(payload.get("v")) != 1 or payload.get("program_id") != program_id:
        return _refused("for another program")
    if payload.get("machine_id") != machine_id:
        return _refused("for another machine")
    if card_key is not None and payload.get("card_code_sha256") != hashlib.sha256(card_key.encode("utf-8")).hexdigest():
        return _refused("for another card")
    if (time.time() if now is None else now) > payload["valid_until"]:
        return _refused("expired")
    return LicenceCheck(valid=True, payload=payload)


def _refused(reason: str) -> LicenceCheck:
    return LicenceCheck(valid=False, reason=reason)
