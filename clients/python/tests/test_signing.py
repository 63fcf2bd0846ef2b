"""The signers against the fixed vectors that the TypeScript client and the service check too."""

from __future__ import annotations

import re
import time
import unittest

from cardkey_client import (
    hmac_signature,
    hmac_signing_input,
    md5_sign,
    md5_signed_fields,
    md5_signing_input,
    signature_headers,
)
from support import load_vectors

VECTORS = load_vectors()


def _hmac_parts(vector):
    return {name: vector[name] for name in ("method", "path", "timestamp", "nonce", "body")}


class HmacSigningTest(unittest.TestCase):
    def test_matches_every_fixed_vector(self) -> None:
        self.assertGreater(len(VECTORS["hmac"]), 0)
        for vector in VECTORS["hmac"]:
            with self.subTest(vector["name"]):
                parts = _hmac_parts(vector)
                self.assertEqual(hmac_signing_input(**parts), vector["input"])
                self.assertEqual(hmac_signature(vector["secret"], **parts), vector["signature"])

    def test_signs_with_a_fresh_nonce_and_the_current_time_unless_given(self) -> None:
        parts = {"method": "POST", "path": "/api/v1/cards/login", "body": "{}"}
        first = signature_headers("k", **parts)
        second = signature_headers("k", **parts)
        self.assertRegex(first["X-Svc-Nonce"], re.compile(r"^[A-Za-z0-9_.:-]{8,96}$"))
        self.assertNotEqual(first["X-Svc-Nonce"], second["X-Svc-Nonce"])
        self.assertLess(abs(int(first["X-Svc-Timestamp"]) - time.time()), 5)
        expected = hmac_signature("k", timestamp=first["X-Svc-Timestamp"], nonce=first["X-Svc-Nonce"], **parts)
        self.assertEqual(first["X-Svc-Signature"], expected)
        fixed = signature_headers("k", timestamp="1763800000", nonce="n0nce-0001", **parts)
        self.assertEqual((fixed["X-Svc-Timestamp"], fixed["X-Svc-Nonce"]), ("1763800000", "n0nce-0001"))

    def test_changes_with_every_signed_part(self) -> None:
        vector = VECTORS["hmac"][0]
        parts = _hmac_parts(vector)
        changes = [
            {"method": "PUT"},
            {"path": "/api/v1/users/login"},
            {"timestamp": "1763800001"},
            {"nonce": "n0nce-0002"},
            {"body": vector["body"] + " "},
        ]
        for change in changes:
            with self.subTest(change):
                self.assertNotEqual(hmac_signature(vector["secret"], **{**parts, **change}), vector["signature"])
        self.assertNotEqual(hmac_signature(vector["secret"] + "x", **parts), vector["signature"])


class Md5SigningTest(unittest.TestCase):
    def test_matches_every_fixed_vector(self) -> None:
        self.assertGreater(len(VECTORS["md5"]), 0)
        for vector in VECTORS["md5"]:
            with self.subTest(vector["name"]):
                self.assertEqual(md5_signing_input(vector["fields"], vector["secret"]), vector["input"])
                self.assertEqual(md5_sign(vector["fields"], vector["secret"]), vector["sign"])

    def test_adds_t_now_and_its_sign(self) -> None:
        signed = md5_signed_fields({"app": "48213907", "kami": "K", "imei": "M"}, "secret")
        self.assertLess(abs(int(signed["t"]) - time.time()), 5)
        rest = {name: value for name, value in signed.items() if name != "sign"}
        self.assertEqual(signed["sign"], md5_sign(rest, "secret"))

    def test_sorts_names_in_code_unit_order_like_the_service(self) -> None:
        # Upper case before lower case, and UTF-16 order for names outside the BMP (JavaScript's sort).
        fields = {"b": "1", "B": "2", "\U0001f600": "3", "\uff41": "4"}
        self.assertEqual(md5_signing_input(fields, "k"), "B=2&b=1&\U0001f600=3&\uff41=4&key=k")


if __name__ == "__main__":
    unittest.main()
