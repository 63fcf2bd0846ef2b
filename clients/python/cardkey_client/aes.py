"""AES-256 (FIPS-197) in pure Python, for the legacy transport encryption without a dependency.

Only small payloads go through it (a request's fields, an answer's data), so table-driven Python
is fast enough. Checked against FIPS-197 appendix C.3 and the shared transport vectors.
"""

from __future__ import annotations

from typing import List, Tuple


def _xtime(value: int) -> int:
    value <<= 1
    return (value ^ 0x11B) if value & 0x100 else value


def _gf_mul(a: int, b: int) -> int:
    product = 0
    while b:
        if b & 1:
            product ^= a
        a = _xtime(a)
        b >>= 1
    return product


def _make_sbox() -> Tuple[List[int], List[int]]:
    sbox = [0] * 256
    for x in range(256):
        inverse = 0
        if x:
            inverse = 1
            for _ in range(254):  # x^254 = x^-1 in GF(2^8)
                inverse = _gf_mul(inverse, x)
        rotl = lambda v, n: ((v << n) | (v >> (8 - n))) & 0xFF  # noqa: E731
        sbox[x] = inverse ^ rotl(inverse, 1) ^ rotl(inverse, 2) ^ rotl(inverse, 3) ^ rotl(inverse, 4) ^ 0x63
    inverse_sbox = [0] * 256
    for x, y in enumerate(sbox):
        inverse_sbox[y] = x
    return sbox, inverse_sbox


SBOX, INV_SBOX = _make_sbox()
_MUL = {factor: [_gf_mul(x, factor) for x in range(256)] for factor in (2, 3, 9, 11, 13, 14)}
_ROUNDS = 14


class Aes256:
    """One AES-256 key, expanded once; encrypts and decrypts single 16-byte blocks."""

    def __init__(self, key: bytes) -> None:
        if len(key) != 32:
            raise ValueError("an AES-256 key is 32 bytes")
        words = [list(key[4 * i : 4 * i + 4]) for i in range(8)]
        rcon = 1
        for i in range(8, 4 * (_ROUNDS + 1)):
            temp = list(words[i - 1])
            if i % 8 == 0:
                temp = [SBOX[b] for b in temp[1:] + temp[:1]]
                temp[0] ^= rcon
                rcon = _xtime(rcon)
            elif i % 8 == 4:
                temp = [SBOX[b] for b in temp]
            words.append([words[i - 8][j] ^ temp[j] for j in range(4)])
        self._round_keys = [sum(words[4 * r : 4 * r + 4], []) for r in range(_ROUNDS + 1)]

    def encrypt_block(self, block: bytes) -> bytes:
        state = [b ^ k for b, k in zip(block, self._round_keys[0])]
        for round_index in range(1, _ROUNDS + 1):
            state = [SBOX[state[r + 4 * ((c + r) % 4)]] for c in range(4) for r in range(4)]  # SubBytes + ShiftRows
            if round_index != _ROUNDS:
                state = _mix_columns(state)
            state = [b ^ k for b, k in zip(state, self._round_keys[round_index])]
        return bytes(state)

    def decrypt_block(self, block: bytes) -> bytes:
        state = [b ^ k for b, k in zip(block, self._round_keys[_ROUNDS])]
        for round_index in range(_ROUNDS - 1, -1, -1):
            shifted = [0] * 16
            for c in range(4):
                for r in range(4):
                    shifted[r + 4 * ((c + r) % 4)] = INV_SBOX[state[r + 4 * c]]  # InvShiftRows + InvSubBytes
            state = [b ^ k for b, k in zip(shifted, self._round_keys[round_index])]
            if round_index != 0:
                state = _inverse_mix_columns(state)
        return bytes(state)


def _mix_columns(s: List[int]) -> List[int]:
    m2, m3 = _MUL[2], _MUL[3]
    out: List[int] = []
    for c in range(4):
        a0, a1, a2, a3 = s[4 * c : 4 * c + 4]
        out += [m2[a0] ^ m3[a1] ^ a2 ^ a3, a0 ^ m2[a1] ^ m3[a2] ^ a3, a0 ^ a1 ^ m2[a2] ^ m3[a3], m3[a0] ^ a1 ^ a2 ^ m2[a3]]
    return out


def _inverse_mix_columns(s: List[int]) -> List[int]:
    m9, m11, m13, m14 = _MUL[9], _MUL[11], _MUL[13], _MUL[14]
    out: List[int] = []
    for c in range(4):
        a0, a1, a2, a3 = s[4 * c : 4 * c + 4]
        out += [
            m14[a0] ^ m11[a1] ^ m13[a2] ^ m9[a3],
            m9[a0] ^ m14[a1] ^ m11[a2] ^ m13[a3],
            m13[a0] ^ m9[a1] ^ m14[a2] ^ m11[a3],
            m11[a0] ^ m13[a1] ^ m9[a2] ^ m14[a3],
        ]
    return out
