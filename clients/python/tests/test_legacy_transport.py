"""Legacy transport encryption: the shared vectors (made with OpenSSL outside this repository) and
the legacy helpers of an encrypted program (the twin of sdk/test/legacy-transport.test.ts)."""

from __future__ import annotations

import base64
import unittest
from urllib.parse import parse_qsl

from cardkey_client import ClientErrorCode, ErrorCode, LegacyTransport, md5_sign, open_text, seal_text
from cardkey_client.aes import Aes256
from support import Reply, load_vectors
from test_client import ServiceTestCase, client_for

TRANSPORT = load_vectors()["transport"]
MODES = ("rc4", "aes", "aes-gcm")


class TransportVectorsTest(unittest.TestCase):
    def test_aes256_block_is_fips_197_c3(self) -> None:
        block = TRANSPORT["aes256_block"]
        aes = Aes256(bytes.fromhex(block["key_hex"]))
        ciphertext = aes.encrypt_block(bytes.fromhex(block["plaintext_hex"]))
        self.assertEqual(ciphertext.hex(), block["ciphertext_hex"])
        self.assertEqual(aes.decrypt_block(ciphertext).hex(), block["plaintext_hex"])

    def test_every_vector_seals_into_its_data_and_opens_back(self) -> None:
        for mode in MODES:
            for vector in TRANSPORT[mode]:
                with self.subTest(mode=mode, name=vector["name"]):
                    transport = LegacyTransport(mode, vector["key"])
                    iv = bytes.fromhex(vector["iv_hex"]) if "iv_hex" in vector else None
                    self.assertEqual(seal_text(transport, vector["plaintext"], iv), vector["data"])
                    self.assertEqual(open_text(transport, vector["data"]), vector["plaintext"])

    def test_a_fresh_iv_for_every_aes_request(self) -> None:
        for mode in ("aes", "aes-gcm"):
            transport = LegacyTransport(mode, "k")
            self.assertNotEqual(seal_text(transport, "same"), seal_text(transport, "same"))

    def test_tampered_or_wrong_key_data_does_not_open(self) -> None:
        vector = TRANSPORT["aes-gcm"][0]
        sealed = bytearray(base64.b64decode(vector["data"]))
        sealed[20] ^= 1
        with self.assertRaises(ValueError):
            open_text(LegacyTransport("aes-gcm", vector["key"]), base64.b64encode(bytes(sealed)).decode())
        with self.assertRaises(ValueError):
            open_text(LegacyTransport("aes", "another key"), TRANSPORT["aes"][0]["data"])

    def test_unknown_mode_or_empty_key_is_a_programming_error(self) -> None:
        with self.assertRaisesRegex(ValueError, "mode"):
            LegacyTransport("des", "k")
        with self.assertRaisesRegex(ValueError, "key"):
            LegacyTransport("aes", "")


class EncryptedLegacyHelpersTest(ServiceTestCase):
    KEY = TRANSPORT["aes"][0]["key"]

    def test_login_sends_app_in_clear_and_the_signed_fields_sealed_and_opens_the_answer(self) -> None:
        card = {"id": 7, "code": "CK-1", "machine_code": "PC-1", "note": "欢迎"}
        for mode in MODES:
            with self.subTest(mode=mode):
                transport = LegacyTransport(mode, self.KEY)
                service = self.service(Reply(json={"code": 1, "msg": "ok", "data": seal_text(transport, '{"id":7,"code":"CK-1","machine_code":"PC-1","note":"欢迎"}'), "request_id": "r1"}))
                result = client_for(service, legacy_transport=transport).legacy.card_login("CK-1", "PC-1")
                self.assertEqual((result.success, result.data), (True, card))
                sent = service.seen[0]
                self.assertEqual(sent.path, "/api/app")
                form = sent.form()
                self.assertEqual(sorted(form), ["app", "data"])
                self.assertEqual(form["app"], "48213907")
                inner = dict(parse_qsl(open_text(transport, form["data"])))
                self.assertEqual((inner["api"], inner["kami"], inner["imei"]), ("card_login", "CK-1", "PC-1"))
                sign = inner.pop("sign")
                self.assertEqual(sign, md5_sign(inner, "legacy-secret"))

    def test_unbind_is_the_canonical_card_unbind(self) -> None:
        transport = LegacyTransport("rc4", self.KEY)
        service = self.service(Reply(json={"code": 1, "msg": "ok", "data": seal_text(transport, '{"id":7}')}))
        client_for(service, legacy_transport=transport).legacy.unbind("CK-1", "PC-1")
        self.assertEqual(dict(parse_qsl(open_text(transport, service.seen[0].form()["data"])))["api"], "card_unbind")

    def test_data_that_does_not_open_is_unexpected_never_a_success(self) -> None:
        sealed = seal_text(LegacyTransport("aes-gcm", "another key"), '{"id":7}')
        service = self.service(Reply(json={"code": 1, "msg": "ok", "data": sealed, "request_id": "r9"}))
        result = client_for(service, legacy_transport=LegacyTransport("aes-gcm", self.KEY)).legacy.card_login("CK-1", "PC-1")
        self.assertEqual((result.success, result.code, result.request_id), (False, ClientErrorCode.UNEXPECTED_RESPONSE, "r9"))

    def test_a_refusal_stays_as_sent(self) -> None:
        service = self.service(Reply(json={"code": 20001, "msg": "The card key is invalid", "request_id": "r2"}))
        result = client_for(service, legacy_transport=LegacyTransport("aes", self.KEY)).legacy.card_login("CK-1", "PC-1")
        self.assertEqual((result.success, result.code), (False, ErrorCode.CARD_INVALID))


if __name__ == "__main__":
    unittest.main()
