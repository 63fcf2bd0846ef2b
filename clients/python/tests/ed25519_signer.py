"""Ed25519 *signing* (RFC 8032 §5.1.6), for the tests only: the fake service signs its answers
the way the real one does. The client itself never signs; it only verifies."""

from __future__ import annotations

import hashlib

from cardkey_client.ed25519 import _BASE, _L, _P, _Point, _multiply


def sign(seed: bytes, message: bytes) -> bytes:
    digest = hashlib.sha512(seed).digest()
    scalar = (int.from_bytes(digest[:32], "little") & ((1 << 254) - 8)) | (1 << 254)
    public = public_key(seed)
    r = int.from_bytes(hashlib.sha512(digest[32:] + message).digest(), "little") % _L
    encoded_r = _encode(_multiply(r, _BASE))
    k = int.from_bytes(hashlib.sha512(encoded_r + public + message).digest(), "little") % _L
    return encoded_r + ((r + k * scalar) % _L).to_bytes(32, "little")


def public_key(seed: bytes) -> bytes:
    digest = hashlib.sha512(seed).digest()
    scalar = (int.from_bytes(digest[:32], "little") & ((1 << 254) - 8)) | (1 << 254)
    return _encode(_multiply(scalar, _BASE))


def _encode(point: _Point) -> bytes:
    z_inverse = pow(point[2], _P - 2, _P)
    x, y = point[0] * z_inverse % _P, point[1] * z_inverse % _P
    return (y | ((x & 1) << 255)).to_bytes(32, "little")
