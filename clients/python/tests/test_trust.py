"""Ed25519 verification, signed answers and offline licences (the twin of sdk/test/trust.test.ts)."""

from __future__ import annotations

import base64
import json
import unittest

from cardkey_client import RawAnswer, answer_distrust, request_digest, request_digest_input, response_signing_input, verify_licence
from cardkey_client.ed25519 import verify
from ed25519_signer import public_key, sign
from support import load_vectors

ED25519 = load_vectors()["ed25519"]
KEYS = {ED25519["kid"]: ED25519["public_key"]}

# RFC 8032 §7.1, tests 1 and 2 (test 1's key is the one of the service's vectors).
RFC8032 = [
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
]


def signed_answer(vector, version="2", **changes) -> RawAnswer:
    headers = {
        "x-svc-response-timestamp": vector["timestamp"],
        "x-svc-response-key": ED25519["kid"],
        "x-svc-response-signature": vector["signature"],
    }
    if version:
        headers["x-svc-response-version"] = version
    return RawAnswer(status=changes.get("status", vector["status"]), headers=changes.get("headers", headers), body=changes.get("body", vector["body"].encode("utf-8")))


class Ed25519Test(unittest.TestCase):
    def test_rfc8032_vectors(self) -> None:
        for seed, public, message, signature in RFC8032:
            with self.subTest(public=public[:8]):
                self.assertTrue(verify(bytes.fromhex(public), bytes.fromhex(message), bytes.fromhex(signature)))
                self.assertFalse(verify(bytes.fromhex(public), bytes.fromhex(message) + b"x", bytes.fromhex(signature)))
                # The test signer is right too, so the fake service below signs as the real one does.
                self.assertEqual(public_key(bytes.fromhex(seed)).hex(), public)
                self.assertEqual(sign(bytes.fromhex(seed), bytes.fromhex(message)).hex(), signature)

    def test_the_vector_key_matches_its_seed(self) -> None:
        self.assertEqual(public_key(bytes.fromhex(ED25519["seed"])).hex(), ED25519["public_key_hex"])

    def test_malformed_input_is_invalid_never_an_exception(self) -> None:
        public = bytes.fromhex(RFC8032[0][1])
        good = bytes.fromhex(RFC8032[0][3])
        not_reduced = good[:32] + (int.from_bytes(good[32:], "little") + 2**252 + 27742317777372353535851937790883648493).to_bytes(32, "little")
        for key, signature in [
            (public[:31], good),
            (public, good[:63]),
            (b"\xff" * 32, good),  # y >= p: not a point
            (public, b"\xff" * 32 + good[32:]),
            (public, not_reduced),  # S + L: malleable, refused
            (public, b"\x00" * 64),
        ]:
            with self.subTest(key=key.hex()[:8], signature=signature.hex()[:8]):
                self.assertFalse(verify(key, b"", signature))


class SignedAnswersTest(unittest.TestCase):
    def test_every_fixed_v2_response_vector(self) -> None:
        self.assertGreater(len(ED25519["responses"]), 0)
        for v in ED25519["responses"]:
            with self.subTest(v["name"]):
                now = int(v["timestamp"])
                sent = v["request"].encode("utf-8")
                self.assertEqual(request_digest(sent), v["request_digest"])
                request = (v["method"], v["path"], v["nonce"], sent)
                self.assertEqual(response_signing_input(*request, v["timestamp"], v["status"], v["body"].encode("utf-8")).decode("utf-8"), v["input"])
                self.assertIsNone(answer_distrust(signed_answer(v), *request, KEYS, 300, now))
                # What a relay does: the same nonce, another request to the service.
                self.assertIn("does not verify", answer_distrust(signed_answer(v), v["method"], v["path"], v["nonce"], sent + b"x", KEYS, 300, now))
                flipped = bytearray(v["body"].encode("utf-8"))
                flipped[0] ^= 1
                self.assertIn("does not verify", answer_distrust(signed_answer(v, body=bytes(flipped)), *request, KEYS, 300, now))
                self.assertIn("does not verify", answer_distrust(signed_answer(v, status=v["status"] + 1), *request, KEYS, 300, now))
                self.assertIn("does not verify", answer_distrust(signed_answer(v), v["method"], v["path"], v["nonce"] + "x", sent, KEYS, 300, now))
                self.assertIn("does not verify", answer_distrust(signed_answer(v), v["method"], v["path"] + "/x", v["nonce"], sent, KEYS, 300, now))
                self.assertIn("time window", answer_distrust(signed_answer(v), *request, KEYS, 300, now + 301))
                self.assertIn("unknown key", answer_distrust(signed_answer(v), *request, {}, 300, now))
                self.assertIn("not signed", answer_distrust(signed_answer(v, headers={}), *request, KEYS, 300, now))
                self.assertIn("not signed in version 2", answer_distrust(signed_answer(v, version=None), *request, KEYS, 300, now))

    def test_a_genuine_v1_signature_is_refused_whatever_version_it_claims(self) -> None:
        for v in ED25519["responses_v1"]:
            for version, reason in [(None, "not signed in version 2"), ("1", "not signed in version 2"), ("2", "does not verify")]:
                with self.subTest(v["name"], version=version):
                    result = answer_distrust(signed_answer(v, version=version), v["method"], v["path"], v["nonce"], b"", KEYS, 300, int(v["timestamp"]))
                    self.assertIn(reason, result)

    def test_digests_the_body_sent_or_the_raw_query_string_of_a_request_without_one(self) -> None:
        self.assertEqual(request_digest_input("POST", "/api/v1/cards/login", b'{"a":1}'), b'{"a":1}')
        self.assertEqual(request_digest_input("GET", "/api/announcement?app=48213907&nonce=n"), b"app=48213907&nonce=n")
        self.assertEqual(request_digest_input("GET", "/api/announcement?app=1", b"ignored"), b"app=1")
        self.assertEqual(request_digest(request_digest_input("POST", "/api/x", b"")), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")

    def test_a_garbled_signature_header_does_not_verify(self) -> None:
        v = ED25519["responses"][0]
        for garbled in ["***", "ab", v["signature"][:-4]]:
            headers = {"x-svc-response-timestamp": v["timestamp"], "x-svc-response-key": ED25519["kid"], "x-svc-response-signature": garbled, "x-svc-response-version": "2"}
            with self.subTest(garbled):
                result = answer_distrust(signed_answer(v, headers=headers), v["method"], v["path"], v["nonce"], v["request"].encode("utf-8"), KEYS, 300, int(v["timestamp"]))
                self.assertIn("does not verify", result)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


class LicenceTest(unittest.TestCase):
    licence = ED25519["licences"][0]
    payload = licence["payload"]
    expect = dict(keys=KEYS, program_id=payload["program_id"], machine_id=payload["machine_id"], card_key=licence["card_key"], now=payload["issued_at"] + 60)

    def test_verifies_the_fixed_licence_vector_without_a_network(self) -> None:
        check = verify_licence(self.licence["licence"], **self.expect)
        self.assertTrue(check.valid)
        self.assertEqual(check.payload, self.payload)

    def test_refuses_another_machine_program_or_card_an_expired_licence_and_an_unknown_key(self) -> None:
        cases = [
            ({"machine_id": "PC-002"}, "for another machine"),
            ({"program_id": "11111111"}, "for another program"),
            ({"card_key": "OTHER"}, "for another card"),
            ({"now": self.payload["valid_until"] + 1}, "expired"),
            ({"keys": {}}, f"signed with an unknown key {self.payload['kid']}"),
        ]
        for change, reason in cases:
            with self.subTest(reason):
                check = verify_licence(self.licence["licence"], **{**self.expect, **change})
                self.assertEqual((check.valid, check.reason), (False, reason))

    def test_gives_the_card_types_features_a_signed_licence_carries(self) -> None:
        # decisions §19: `features` in the payload, signed with it; an older licence has none.
        encoded = _b64url(json.dumps({**self.payload, "features": ["pro", "export.pdf"]}).encode("utf-8"))
        signature = _b64url(sign(bytes.fromhex(ED25519["seed"]), f"svc-licence-v1.{encoded}".encode("utf-8")))
        check = verify_licence(f"{encoded}.{signature}", **self.expect)
        self.assertTrue(check.valid)
        self.assertEqual(check.payload["features"], ["pro", "export.pdf"])
        self.assertNotIn("features", verify_licence(self.licence["licence"], **self.expect).payload)

    def test_refuses_a_tampered_payload_and_things_that_are_not_licences(self) -> None:
        encoded, signature = self.licence["licence"].split(".")
        longer = _b64url(json.dumps({**self.payload, "valid_until": self.payload["valid_until"] + 86400}).encode("utf-8"))
        self.assertEqual(verify_licence(f"{longer}.{signature}", **self.expect).reason, "the signature does not verify")
        for text in [encoded, f"{encoded}.{signature}.x", "", f"{_b64url(b'null')}.{signature}", f"{encoded}.***"]:
            with self.subTest(text[:12]):
                self.assertFalse(verify_licence(text, **self.expect).valid)


if __name__ == "__main__":
    unittest.main()
