"""Legacy V1 transport encryption (docs/protocol.md 5.5), standard library only.

A program whose ``transport_encryption`` is not ``none`` sends ``app`` in clear and ``data`` =
base64 of its encrypted, URL-encoded fields to the aggregate entry ``/api/app``; a success answer's
``data`` is sealed the same way. ``rc4`` keys with the UTF-8 bytes of the transport key; ``aes`` is
AES-256-CBC (PKCS#7, a random 16-byte IV prefixed) and ``aes-gcm`` AES-256-GCM (a random 12-byte IV,
a 16-byte tag after the ciphertext), both keyed with SHA-256 of the transport key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import urllib.parse
from dataclasses import dataclass
from typing import Mapping, Optional, Tuple

from .aes import Aes256

MODES = ("rc4", "aes", "aes-gcm")
_GCM_IV_BYTES = 12
_GCM_TAG_BYTES = 16


@dataclass(frozen=True)
class LegacyTransport:
    """The project's ``transport_encryption`` (``rc4``, ``aes`` or ``aes-gcm``) and its ``transport_key``."""

    mode: str
    key: str

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError("legacy_transport.mode must be 'rc4', 'aes' or 'aes-gcm'")
        if not isinstance(self.key, str) or not self.key:
            raise ValueError("legacy_transport.key is required")


def seal_legacy_request(transport: LegacyTransport, fields: Mapping[str, str], iv: Optional[bytes] = None) -> str:
    """``data`` of an encrypted aggregate request. ``iv`` is for the test vectors only."""
    return seal_text(transport, urllib.parse.urlencode(dict(fields)), iv)


def seal_text(transport: LegacyTransport, text: str, iv: Optional[bytes] = None) -> str:
    plain = text.encode("utf-8")
    if transport.mode == "rc4":
        sealed = rc4(transport.key.encode("utf-8"), plain)
    elif transport.mode == "aes":
        nonce = iv if iv is not None else os.urandom(16)
        sealed = nonce + _cbc_encrypt(_aes(transport.key), nonce, plain)
    else:
        nonce = iv if iv is not None else os.urandom(_GCM_IV_BYTES)
        ciphertext, tag = _gcm(_aes(transport.key), nonce, plain, decrypt=False)
        sealed = nonce + ciphertext + tag
    return base64.b64encode(sealed).decode("ascii")


def open_text(transport: LegacyTransport, data: str) -> str:
    """The UTF-8 text inside ``data``; raises ValueError when it does not open (wrong key, tampered)."""
    sealed = base64.b64decode(data, validate=False)
    if transport.mode == "rc4":
        return rc4(transport.key.encode("utf-8"), sealed).decode("utf-8")
    if transport.mode == "aes":
        if len(sealed) < 32 or len(sealed) % 16:
            raise ValueError("ciphertext too short or not whole blocks")
        return _cbc_decrypt(_aes(transport.key), sealed[:16], sealed[16:]).decode("utf-8")
    if len(sealed) < _GCM_IV_BYTES + _GCM_TAG_BYTES:
        raise ValueError("ciphertext too short")
    nonce, body, tag = sealed[:_GCM_IV_BYTES], sealed[_GCM_IV_BYTES:-_GCM_TAG_BYTES], sealed[-_GCM_TAG_BYTES:]
    plain, expected = _gcm(_aes(transport.key), nonce, body, decrypt=True)
    if not hmac.compare_digest(expected, tag):
        raise ValueError("authentication tag mismatch")
    return plain.decode("utf-8")


def rc4(key: bytes, data: bytes) -> bytes:
    """RC4 without keystream drop (KSA + PRGA)."""
    s = list(range(256))
    j = 0
    for i in range(256):
        j = (j + s[i] + key[i % len(key)]) & 255
        s[i], s[j] = s[j], s[i]
    out = bytearray(len(data))
    i = j = 0
    for n, byte in enumerate(data):
        i = (i + 1) & 255
        j = (j + s[i]) & 255
        s[i], s[j] = s[j], s[i]
        out[n] = byte ^ s[(s[i] + s[j]) & 255]
    return bytes(out)


def _aes(key: str) -> Aes256:
    return Aes256(hashlib.sha256(key.encode("utf-8")).digest())


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b))


def _cbc_encrypt(aes: Aes256, iv: bytes, plain: bytes) -> bytes:
    pad = 16 - len(plain) % 16
    padded = plain + bytes([pad]) * pad
    out, previous = bytearray(), iv
    for start in range(0, len(padded), 16):
        previous = aes.encrypt_block(_xor(padded[start : start + 16], previous))
        out += previous
    return bytes(out)


def _cbc_decrypt(aes: Aes256, iv: bytes, ciphertext: bytes) -> bytes:
    out, previous = bytearray(), iv
    for start in range(0, len(ciphertext), 16):
        block = ciphertext[start : start + 16]
        out += _xor(aes.decrypt_block(block), previous)
        previous = block
    pad = out[-1]
    if not 1 <= pad <= 16 or out[-pad:] != bytes([pad]) * pad:
        raise ValueError("bad padding")
    return bytes(out[:-pad])


_GCM_R = 0xE1 << 120


def _gf128_mul(x: int, y: int) -> int:
    """Multiplication in GCM's GF(2^128) (NIST SP 800-38D, algorithm 1)."""
    z, v = 0, y
    for bit in range(127, -1, -1):
        if (x >> bit) & 1:
            z ^= v
        v = (v >> 1) ^ _GCM_R if v & 1 else v >> 1
    return z


def _gcm(aes: Aes256, iv: bytes, data: bytes, decrypt: bool) -> Tuple[bytes, bytes]:
    """CTR over ``data`` and the tag over the ciphertext (no associated data, 96-bit IV)."""
    h = int.from_bytes(aes.encrypt_block(bytes(16)), "big")
    j0 = iv + b"\x00\x00\x00\x01"
    out = bytearray()
    for index, start in enumerate(range(0, len(data), 16)):
        counter = iv + ((2 + index) & 0xFFFFFFFF).to_bytes(4, "big")
        out += _xor(data[start : start + 16], aes.encrypt_block(counter))
    ciphertext = data if decrypt else bytes(out)
    tag_input = 0
    for start in range(0, len(ciphertext), 16):
        tag_input = _gf128_mul(tag_input ^ int.from_bytes(ciphertext[start : start + 16].ljust(16, b"\x00"), "big"), h)
    tag_input = _gf128_mul(tag_input ^ (len(ciphertext) * 8), h)  # len(A) = 0 in the high 64 bits
    tag = _xor(aes.encrypt_block(j0), tag_input.to_bytes(16, "big"))
    return bytes(out), tag
