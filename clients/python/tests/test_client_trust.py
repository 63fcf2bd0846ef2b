"""The client with pinned response keys: only answers signed over this request are believed."""

from __future__ import annotations

import base64
import json
import time
import unittest

from cardkey_client import Client, ClientErrorCode, ErrorCode, LegacyTransport, response_signing_input, seal_text
from ed25519_signer import sign
from support import Reply, SeenRequest, closed_port, load_vectors
from test_client import CARD_SESSION, ServiceTestCase, client_for

ED25519 = load_vectors()["ed25519"]
KEYS = {ED25519["kid"]: ED25519["public_key"]}
SEED = bytes.fromhex(ED25519["seed"])


def signed(body: dict, path: str, nonce: str, sent: bytes, status: int = 200, timestamp: int = 0, v1: bool = False) -> Reply:
    """An answer signed as the service signs it (v2), over the given request path, nonce and bytes sent;
    ``v1``: in the retired v1 string, without the request's digest and version header."""
    text = json.dumps(body, ensure_ascii=False)
    stamp = str(timestamp or int(time.time()))
    if v1:
        signed_bytes = f"svc-response-v1\nPOST\n{path}\n{nonce}\n{stamp}\n{status}\n".encode("utf-8") + text.encode("utf-8")
    else:
        signed_bytes = response_signing_input("POST", path, nonce, sent, stamp, status, text.encode("utf-8"))
    headers = {
        "X-Svc-Response-Timestamp": stamp,
        "X-Svc-Response-Key": ED25519["kid"],
        "X-Svc-Response-Signature": base64.urlsafe_b64encode(sign(SEED, signed_bytes)).decode("ascii").rstrip("="),
        "Content-Type": "application/json",
    }
    if not v1:
        headers["X-Svc-Response-Version"] = "2"
    return Reply(status=status, text=text, headers=headers)


def signed_for_request(body: dict, status: int = 200, v1: bool = False):
    """Signs over what the request carried: the nonce of the header (V3, SDK) or the form field
    (Connect, legacy), and the body bytes."""

    def reply(request: SeenRequest) -> Reply:
        nonce = request.headers.get("x-svc-nonce") or request.form().get("nonce", "")
        return signed(body, request.path, nonce, request.body, status, v1=v1)

    return reply


STANDARD_SUCCESS = {"code": 0, "success": True, "msg": "ok", "token": "t", "data": CARD_SESSION, "request_id": "r"}


class PinnedKeysTest(ServiceTestCase):
    def test_an_unsigned_success_is_untrusted_and_never_a_success(self) -> None:
        client = client_for(self.service(Reply(json=STANDARD_SUCCESS)), response_keys=KEYS, retries=0)
        result = client.card_login("CK", "PC")
        self.assertEqual((result.success, result.code, result.http_status), (False, ClientErrorCode.UNTRUSTED_RESPONSE, 200))
        self.assertIn("not signed", result.message)
        self.assertIsNone(client.session)

    def test_an_empty_set_of_pinned_keys_trusts_nothing(self) -> None:
        service = self.service(signed_for_request(STANDARD_SUCCESS))
        self.assertEqual(client_for(service, response_keys={}).card_login("CK", "PC-1").code, ClientErrorCode.UNTRUSTED_RESPONSE)

    def test_an_answer_signed_for_another_request_is_untrusted(self) -> None:
        # A signature made for another nonce: an old answer replayed by a proxy.
        def old(request: SeenRequest) -> Reply:
            return signed(STANDARD_SUCCESS, "/api/v1/cards/login", "old-nonce", request.body)

        def stale(request: SeenRequest) -> Reply:
            return signed(STANDARD_SUCCESS, "/api/v1/cards/login", request.headers["x-svc-nonce"], request.body, timestamp=int(time.time()) - 3600)

        self.assertEqual(client_for(self.service(old), response_keys=KEYS).card_login("CK", "PC-1").code, ClientErrorCode.UNTRUSTED_RESPONSE)
        self.assertEqual(client_for(self.service(stale), response_keys=KEYS).card_login("CK", "PC-1").code, ClientErrorCode.UNTRUSTED_RESPONSE)

    def test_a_genuine_v1_signature_over_this_request_is_untrusted(self) -> None:
        result = client_for(self.service(signed_for_request(STANDARD_SUCCESS, v1=True)), response_keys=KEYS).card_login("CK", "PC-1")
        self.assertEqual((result.success, result.code), (False, ClientErrorCode.UNTRUSTED_RESPONSE))
        self.assertIn("version 2", result.message)

    def test_a_signed_success_for_another_device_or_card_is_untrusted_and_so_is_a_heartbeat_for_another_card(self) -> None:
        for data, what in [({"code": "OTHER-CARD"}, "card"), ({"machine_code": "OTHER-PC"}, "device"), ({"machine_code": None}, "device")]:
            with self.subTest(what=what, data=data):
                body = {**STANDARD_SUCCESS, "data": {**CARD_SESSION, **data}}
                client = client_for(self.service(signed_for_request(body)), response_keys=KEYS)
                result = client.card_login("CK", "PC-1")
                self.assertEqual((result.success, result.code, result.message), (False, ClientErrorCode.UNTRUSTED_RESPONSE, f"Untrusted answer: it is for another {what} than the one sent"))
                self.assertIsNone(client.session)

        def beat(card_id: int, expires: str):
            return signed_for_request({"code": 0, "success": True, "msg": "ok", "data": {"card_id": card_id, "session_expires_at": expires, "server_time": 1}})

        client = client_for(self.service(signed_for_request(STANDARD_SUCCESS), beat(7, "y"), beat(8, "z")), response_keys=KEYS)
        self.assertTrue(client.card_login("CK", "PC-1").success)
        self.assertTrue(client.card_heartbeat().success)
        swapped = client.card_heartbeat()
        self.assertEqual((swapped.success, swapped.code), (False, ClientErrorCode.UNTRUSTED_RESPONSE))
        self.assertEqual(client.session.expires_at, "y", "an untrusted heartbeat renews nothing")

    def test_an_encrypted_legacy_answer_is_verified_with_an_empty_nonce_over_the_ciphertext_form_sent(self) -> None:
        transport = LegacyTransport("rc4", "transport-key")

        def reply(request: SeenRequest) -> Reply:
            data = seal_text(transport, json.dumps({"id": 7, "code": "CK", "machine_code": "PC-1"}))
            return signed({"code": 1, "msg": "ok", "data": data}, "/api/app", "", request.body)

        result = client_for(self.service(reply), response_keys=KEYS, legacy_transport=transport).legacy.card_login("CK", "PC-1")
        self.assertEqual((result.success, result.data["machine_code"]), (True, "PC-1"))

    def test_every_family_is_believed_when_signed_over_this_request(self) -> None:
        heartbeat = {"code": 0, "success": True, "msg": "ok", "data": {"card_id": 7, "session_expires_at": "z", "server_time": 1}}
        service = self.service(
            signed_for_request(STANDARD_SUCCESS),
            signed_for_request(heartbeat),
            signed_for_request(STANDARD_SUCCESS),
            signed_for_request({"status": True, "code": 1, "reason": "ok", "data": {"token": "c", "machine_code": "PC-1"}}),
            signed_for_request({"code": 1, "msg": "ok", "data": {"token": "l", "code": "CK", "machine_code": "PC-1"}}),
            signed_for_request({"code": 20004, "success": False, "msg": "device limit"}),
        )
        client = client_for(service, response_keys=KEYS)
        self.assertTrue(client.card_login("CK", "PC-1").success)
        self.assertTrue(client.card_heartbeat().success)
        self.assertTrue(client.v3_card_login("CK", "PC-1").success)
        self.assertTrue(client.connect_login("CK", "PC-1").success)
        self.assertTrue(client.legacy.card_login("CK", "PC-1").success)
        refused = client.card_login("CK", "PC-2")
        self.assertEqual((refused.success, refused.code), (False, ErrorCode.DEVICE_LIMIT_REACHED), "a signed refusal is a refusal")

    def test_falls_back_on_a_kept_licence_only_when_the_service_cannot_be_reached(self) -> None:
        licence = ED25519["licences"][0]
        payload = licence["payload"]
        client = Client(base_url=f"http://127.0.0.1:{closed_port()}", program_id=payload["program_id"], api_secret="k", response_keys=KEYS, retries=0)
        login = client.card_login(licence["card_key"], payload["machine_id"])
        self.assertEqual(login.code, ClientErrorCode.NETWORK_ERROR)
        check = client.check_licence(licence["licence"], licence["card_key"], payload["machine_id"], now=payload["issued_at"] + 60)
        self.assertTrue(check.valid)
        self.assertFalse(client.check_licence(licence["licence"], licence["card_key"], "PC-002", now=payload["issued_at"] + 60).valid)
        with self.assertRaisesRegex(ValueError, "response_keys"):
            Client(base_url="http://x", program_id="1", api_secret="k").check_licence(licence["licence"], "c", "m")

    def test_the_self_service_routes_are_believed_only_when_signed_over_this_request(self) -> None:
        routes = [
            ("/api/v1/cards/topup", {"code": 0, "success": True, "msg": "ok", "data": {"kind": "time", "status": "active", "expires_at": "x", "uses_left": None}}, lambda c: c.card_topup("CK", "TOP")),
            ("/api/v1/cards/info", {"code": 0, "success": True, "msg": "ok", "data": {"kind": "time", "status": "active", "devices": []}}, lambda c: c.card_info("CK")),
            ("/api/v1/cards/unbind", {"code": 1, "success": True, "msg": "Unbound", "data": {"id": 1, "code": "CK", "machine_code": "PC", "unbind_count": 1}}, lambda c: c.card_unbind("CK", "PC")),
        ]
        for path, body, run in routes:
            with self.subTest(path=path):
                self.assertTrue(run(client_for(self.service(signed_for_request(body)), response_keys=KEYS)).success)
                unsigned = run(client_for(self.service(Reply(json=body)), response_keys=KEYS, retries=0))
                self.assertEqual((unsigned.success, unsigned.code), (False, ClientErrorCode.UNTRUSTED_RESPONSE))

                def elsewhere(request: SeenRequest, body: dict = body) -> Reply:
                    # Signed for another route (the login) with this request's nonce: not this answer.
                    return signed(body, "/api/v1/cards/login", request.headers["x-svc-nonce"], request.body)

                moved = run(client_for(self.service(elsewhere), response_keys=KEYS, retries=0))
                self.assertEqual((moved.success, moved.code), (False, ClientErrorCode.UNTRUSTED_RESPONSE))
        refusal = {"code": 20008, "success": False, "msg": "This card is banned", "request_id": "r"}
        refused = client_for(self.service(signed_for_request(refusal)), response_keys=KEYS).card_topup("CK", "TOP")
        self.assertEqual((refused.success, refused.code, refused.message), (False, ErrorCode.TOPUP_REFUSED, "This card is banned"))

    def test_checkout_sends_the_ttl(self) -> None:
        data = {"licence": "a.b", "kid": ED25519["kid"], "expires_at": "x", "valid_until": 1}
        service = self.service(signed_for_request({"code": 0, "success": True, "msg": "ok", "data": data}))
        result = client_for(service, response_keys=KEYS).card_checkout("CK", "PC", ttl_seconds=600)
        self.assertEqual((result.success, result.data), (True, data))
        self.assertEqual(service.seen[0].json(), {"app": "48213907", "card_key": "CK", "machine_id": "PC", "ttl_seconds": 600})


if __name__ == "__main__":
    unittest.main()
