"""Writes the `transport` section of signing-vectors.json with an implementation independent of this
repository: the `cryptography` package (OpenSSL), not the service's nor either client's code.
Run once when a vector is added (python3 -m pip install cryptography); never with the code under test.
"""
import base64
import hashlib
import json
import pathlib

from cryptography.hazmat.decrepit.ciphers.algorithms import ARC4
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

KEY = "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c"  # a transport_key: 32 hex characters, used as UTF-8 text
REQUEST = "api=card_login&app=48213907&kami=CK-7QH2-9XKD-M3PA&imei=PC-001&t=1763800000&sign=72a9485c927d2734d909d956ae7a8e92"
NON_ASCII = "api=user_login&app=48213907&username=%E5%BC%A0%E4%B8%89&password=p%C3%A4ss+w%C3%B6rd&machine_id=%E5%8A%9E%E5%85%AC%E5%AE%A4-01"
ANSWER = '{"id":7,"code":"CK-7QH2-9XKD-M3PA","expires_at":"2026-12-22 08:00:00","note":"公告：欢迎"}'
CASES = [("a signed card_login request", REQUEST), ("a user_login request with non-ASCII fields", NON_ASCII), ("an answer's data (JSON with Chinese text)", ANSWER)]
IVS = ["000102030405060708090a0b0c0d0e0f", "f0e1d2c3b4a5968778695a4b3c2d1e0f", "1032547698badcfe0123456789abcdef"]
GCM_IVS = ["000000000000000000000001", "cafebabefacedbaddecaf888", "0a0b0c0d0e0f101112131415"]


def aes_key(key: str) -> bytes:
    return hashlib.sha256(key.encode("utf-8")).digest()


def rc4(key: str, plain: bytes) -> bytes:
    return Cipher(ARC4(key.encode("utf-8")), mode=None).encryptor().update(plain)


def aes_cbc(key: str, iv: bytes, plain: bytes) -> bytes:
    padder = padding.PKCS7(128).padder()
    padded = padder.update(plain) + padder.finalize()
    encryptor = Cipher(algorithms.AES(aes_key(key)), modes.CBC(iv)).encryptor()
    return iv + encryptor.update(padded) + encryptor.finalize()


def aes_gcm(key: str, iv: bytes, plain: bytes) -> bytes:
    return iv + AESGCM(aes_key(key)).encrypt(iv, plain, None)  # ciphertext ‖ 16-byte tag


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def main() -> None:
    path = pathlib.Path(__file__).with_name("signing-vectors.json")
    vectors = json.loads(path.read_text("utf-8"))
    block_key = bytes(range(32))
    block = Cipher(algorithms.AES(block_key), modes.ECB()).encryptor().update(bytes.fromhex("00112233445566778899aabbccddeeff"))
    vectors["transport"] = {
        "//": "Legacy V1 transport encryption (docs/protocol.md 5.5), made by sdk/vectors/make-transport-vectors.py with the "
        "`cryptography` package (OpenSSL), independent of the service and both clients. `plaintext` is the UTF-8 text that is "
        "encrypted (url-encoded request fields, or an answer's JSON data); `data` is the base64 on the wire. Random IVs are "
        "fixed here so that an encryption can be compared; a real client draws a fresh one each time.",
        "aes256_block": {"//": "FIPS-197 appendix C.3", "key_hex": block_key.hex(), "plaintext_hex": "00112233445566778899aabbccddeeff", "ciphertext_hex": block.hex()},
        "rc4": [{"name": name, "key": KEY, "plaintext": text, "data": b64(rc4(KEY, text.encode("utf-8")))} for name, text in CASES],
        "aes": [
            {"name": name, "key": KEY, "iv_hex": iv, "plaintext": text, "data": b64(aes_cbc(KEY, bytes.fromhex(iv), text.encode("utf-8")))}
            for (name, text), iv in zip(CASES, IVS)
        ],
        "aes-gcm": [
            {"name": name, "key": KEY, "iv_hex": iv, "plaintext": text, "data": b64(aes_gcm(KEY, bytes.fromhex(iv), text.encode("utf-8")))}
            for (name, text), iv in zip(CASES, GCM_IVS)
        ],
    }
    path.write_text(json.dumps(vectors, ensure_ascii=False, indent=2) + "\n", "utf-8")


if __name__ == "__main__":
    main()
