"""The client against a scripted HTTP service (the twin of sdk/test/client.test.ts)."""

from __future__ import annotations

import unittest

from cardkey_client import Client, ClientErrorCode, ErrorCode, Session, hmac_signature, md5_sign
from support import Drop, FakeService, Hang, Reply, SeenRequest, closed_port, standard_failure, standard_ok

CARD_SESSION = {
    "id": 7, "code": "CK", "machine_code": "PC-1", "expires_at": "2027-01-01 00:00:00",
    "session_token": "sess-1", "session_expires_at": "2026-11-22 16:00:00", "heartbeat_interval_seconds": 30,
}
HEARTBEAT_OK = standard_ok({"card_id": 7, "session_expires_at": "2026-11-22 16:10:00", "server_time": 1})


def client_for(service: FakeService, **options) -> Client:
    settings = dict(base_url=service.url, program_id="48213907", api_secret="api-secret", legacy_secret="legacy-secret", retry_delay=0.001)
    return Client(**{**settings, **options})


class ServiceTestCase(unittest.TestCase):
    def service(self, *replies) -> FakeService:
        service = FakeService(*replies)
        self.addCleanup(service.close)
        return service

    def assert_hmac(self, request: SeenRequest, path: str) -> None:
        h = request.headers
        expected = hmac_signature("api-secret", "POST", path, h["x-svc-timestamp"], h["x-svc-nonce"], request.text)
        self.assertEqual(h["x-svc-signature"], expected)


class CardSessionTest(ServiceTestCase):
    def test_signs_the_login_holds_the_session_and_heartbeats_with_it(self) -> None:
        service = self.service(standard_ok(CARD_SESSION, token="compat", statecode="active"), HEARTBEAT_OK)
        client = client_for(service)
        login = client.card_login(card_key="CK", machine_id="PC-1")
        self.assertTrue(login.success)
        self.assertEqual((login.data["token"], login.data["statecode"], login.data["session_token"]), ("compat", "active", "sess-1"))
        sent = service.seen[0]
        self.assertEqual((sent.method, sent.path), ("POST", "/api/v1/cards/login"))
        self.assertEqual(sent.json(), {"app": "48213907", "card_key": "CK", "machine_id": "PC-1"})
        self.assertEqual(sent.headers["content-type"], "application/json")
        self.assert_hmac(sent, "/api/v1/cards/login")
        self.assertEqual(client.session, Session("card", "sess-1", "PC-1", "2026-11-22 16:00:00", 30, card_id=7))

        beat = client.card_heartbeat()
        self.assertTrue(beat.success)
        hb = service.seen[1]
        self.assertEqual(hb.path, "/api/v1/cards/heartbeat")
        self.assertEqual(hb.headers["authorization"], "Bearer sess-1")
        self.assertRegex(hb.headers["x-svc-nonce"], r"^[0-9a-f]{24}$")
        self.assertNotIn("x-svc-signature", hb.headers)
        self.assertEqual(hb.json(), {"machine_id": "PC-1"})
        self.assertEqual(client.session.expires_at, "2026-11-22 16:10:00")

    def test_the_session_property_is_a_copy(self) -> None:
        service = self.service(standard_ok(CARD_SESSION))
        client = client_for(service)
        client.card_login("CK", "PC-1")
        client.session.token = "changed"
        self.assertEqual(client.session.token, "sess-1")

    def test_no_session_after_a_failed_login_and_no_session_to_a_heartbeat_without_sending_it(self) -> None:
        service = self.service(standard_failure(ErrorCode.CARD_EXPIRED))
        client = client_for(service)
        login = client.card_login("CK", "PC-1")
        self.assertEqual((login.success, login.code, login.message, login.request_id), (False, ErrorCode.CARD_EXPIRED, f"failure {ErrorCode.CARD_EXPIRED}", "r"))
        self.assertIsNone(client.session)
        self.assertEqual(client.card_heartbeat().code, ClientErrorCode.NO_SESSION)
        self.assertEqual(len(service.seen), 1)

    def test_a_session_ending_answer_clears_the_session(self) -> None:
        for code in (ErrorCode.SESSION_INVALID, ErrorCode.SESSION_TYPE_MISMATCH):
            with self.subTest(code=code):
                client = client_for(self.service(standard_ok(CARD_SESSION), standard_failure(code, 401)))
                client.card_login("CK", "PC-1")
                self.assertEqual(client.card_heartbeat().code, code)
                self.assertIsNone(client.session)

    def test_keeps_the_session_through_other_heartbeat_failures(self) -> None:
        client = client_for(self.service(standard_ok(CARD_SESSION), standard_failure(ErrorCode.QUOTA_EXCEEDED, 429)))
        client.card_login("CK", "PC-1")
        self.assertEqual(client.card_heartbeat().code, ErrorCode.QUOTA_EXCEEDED)
        self.assertEqual(client.session.token, "sess-1")

    def test_takes_up_a_restored_session_and_heartbeats_with_it(self) -> None:
        service = self.service(HEARTBEAT_OK)
        client = client_for(service)
        saved = Session("card", "kept", "PC-9", "x").to_dict()
        client.restore_session(Session.from_dict(saved))
        self.assertTrue(client.card_heartbeat().success)
        self.assertEqual(service.seen[0].headers["authorization"], "Bearer kept")
        self.assertEqual(service.seen[0].json(), {"machine_id": "PC-9"})
        with self.assertRaisesRegex(ValueError, "session.token"):
            client.restore_session(Session("card", "", "m", "x"))
        with self.assertRaisesRegex(ValueError, "session.type"):
            client.restore_session(Session("other", "t", "m", "x"))

    def test_does_not_heartbeat_a_user_session_as_a_card_session(self) -> None:
        service = self.service(standard_ok({"profile": {}, "session_token": "u", "session_expires_at": "x", "machine_id": "PC-1"}))
        client = client_for(service)
        client.user_login("alice", "secret-1", "PC-1")
        self.assertEqual(client.card_heartbeat().code, ClientErrorCode.NO_SESSION)
        self.assertEqual(client.session.type, "app_user")


class UsersAndVersionTest(ServiceTestCase):
    def test_register_login_and_user_heartbeat(self) -> None:
        login_data = {"profile": {"user_id": 3, "username": "alice"}, "session_token": "user-sess", "session_expires_at": "x", "machine_id": "BOUND-PC", "heartbeat_interval_seconds": 20}
        service = self.service(standard_ok({"user_id": 3, "username": "alice", "status": "active"}), standard_ok(login_data), standard_ok({"user_id": 3, "session_expires_at": "y", "server_time": 1}))
        client = client_for(service)
        self.assertEqual(client.user_register("alice", "secret-1", "PC-1").data["user_id"], 3)
        self.assertTrue(client.user_login("alice", "secret-1", "PC-1").success)
        self.assertEqual(client.session, Session("app_user", "user-sess", "BOUND-PC", "x", 20, user_id=3))
        self.assertTrue(client.user_heartbeat().success)
        self.assertEqual([r.path for r in service.seen], ["/api/v1/users/register", "/api/v1/users/login", "/api/v1/users/heartbeat"])
        for request in service.seen[:2]:
            self.assertEqual(request.json(), {"app": "48213907", "username": "alice", "password": "secret-1", "machine_id": "PC-1"})
        self.assert_hmac(service.seen[0], "/api/v1/users/register")
        self.assertEqual(service.seen[2].json(), {"machine_id": "BOUND-PC"}, "the heartbeat names the machine finally bound")
        self.assertEqual(client.session.expires_at, "y")

    def test_checks_the_version_and_signs_non_ascii_bodies_as_sent(self) -> None:
        service = self.service(standard_ok({"latest_version": "1.2.0", "update_available": True, "force_update": False, "changelog": "修复", "download_url": None}))
        client = client_for(service)
        result = client.check_version("1.0.0")
        self.assertEqual((result.success, result.data["changelog"]), (True, "修复"))
        self.assertEqual(service.seen[0].text, '{"app":"48213907","version":"1.0.0"}')
        self.assert_hmac(service.seen[0], "/api/v1/apps/version")
        client.user_register("li.wei", "pässwörd-密码", "机器-01")
        self.assertIn("机器-01", service.seen[1].text)
        self.assert_hmac(service.seen[1], "/api/v1/users/register")


class RetriesTest(ServiceTestCase):
    def test_retries_a_network_failure_of_an_idempotent_call_signing_each_attempt_afresh(self) -> None:
        service = self.service(Drop(), Drop(), standard_ok(CARD_SESSION))
        login = client_for(service).card_login("CK", "PC-1")
        self.assertTrue(login.success)
        self.assertEqual(len(service.seen), 3)
        self.assertEqual(len({r.headers["x-svc-nonce"] for r in service.seen}), 3)
        for request in service.seen:
            self.assert_hmac(request, "/api/v1/cards/login")

    def test_network_error_after_the_last_attempt(self) -> None:
        client = Client(base_url=f"http://127.0.0.1:{closed_port()}", program_id="48213907", api_secret="k", retries=3, retry_delay=0.001)
        result = client.check_version("1.0.0")
        self.assertEqual((result.success, result.code, result.http_status), (False, ClientErrorCode.NETWORK_ERROR, None))
        self.assertIn("ECONNREFUSED", result.message)
        dropped = self.service(Drop())
        self.assertEqual(client_for(dropped, retries=3).check_version("1.0.0").code, ClientErrorCode.NETWORK_ERROR)
        self.assertEqual(len(dropped.seen), 4)

    def test_retries_a_gateway_page_but_never_a_business_rejection_or_a_system_error(self) -> None:
        gateway = self.service(Reply(status=502, text="<html>Bad Gateway</html>"), standard_ok({"latest_version": "1.0.0"}))
        self.assertTrue(client_for(gateway).check_version("1.0.0").success)
        self.assertEqual(len(gateway.seen), 2)
        for reply in (standard_failure(ErrorCode.CARD_BANNED), standard_failure(ErrorCode.SYSTEM_ERROR, 500), standard_failure(ErrorCode.RATE_LIMITED, 429)):
            with self.subTest(code=reply.json["code"]):
                service = self.service(reply)
                result = client_for(service).card_login("CK", "PC-1")
                self.assertEqual((result.success, result.code, result.http_status), (False, reply.json["code"], reply.status))
                self.assertEqual(len(service.seen), 1)

    def test_never_retries_a_registration_or_an_unbind(self) -> None:
        service = self.service(Drop())
        client = client_for(service)
        self.assertEqual(client.user_register("alice", "secret-1", "m").code, ClientErrorCode.NETWORK_ERROR)
        self.assertEqual(client.legacy.unbind("CK", "m").code, ClientErrorCode.NETWORK_ERROR)
        self.assertEqual(len(service.seen), 2)

    def test_times_out_an_attempt_that_gets_no_answer(self) -> None:
        service = self.service(Hang())
        result = client_for(service, timeout=0.05, retries=1).check_version("1.0.0")
        self.assertEqual((result.code, result.message), (ClientErrorCode.NETWORK_ERROR, "The service could not be reached: timed out"))

    def test_an_html_page_or_a_redirect_is_unexpected_and_never_followed(self) -> None:
        service = self.service(Reply(status=302, text="", headers={"Location": "/login"}), Reply(text="<html>Welcome</html>"))
        client = client_for(service)
        for result in (client.card_login("K", "m"), client.check_version("1.0.0")):
            self.assertEqual((result.success, result.code), (False, ClientErrorCode.UNEXPECTED_RESPONSE))
            self.assertIn("service address", result.message)
        self.assertEqual([r.path for r in service.seen], ["/api/v1/cards/login", "/api/v1/apps/version"])
        self.assertIsNone(client.session)


class OtherFamiliesTest(ServiceTestCase):
    def test_v3_sends_a_signed_form_and_reads_the_standard_answer(self) -> None:
        service = self.service(standard_ok({"id": 1, "code": "CK", "machine_code": "PC-1", "expires_at": "x"}, token="compat", statecode="active"))
        result = client_for(service).v3_card_login("CK", "PC-1")
        self.assertEqual((result.success, result.code, result.data["token"]), (True, 0, "compat"))
        sent = service.seen[0]
        self.assertEqual(sent.path, "/api/legacy/v3/cards/login")
        self.assertEqual(sent.headers["content-type"], "application/x-www-form-urlencoded")
        self.assertEqual(sent.text, "app=48213907&kami=CK&imei=PC-1")
        self.assert_hmac(sent, "/api/legacy/v3/cards/login")

    def test_connect_sends_a_fresh_nonce_per_attempt_and_never_retries_the_callers_nonce(self) -> None:
        ok = Reply(json={"status": True, "code": 1, "reason": "ok", "data": {"token": "t", "machine_code": "PC-1"}, "request_id": "r"})
        service = self.service(Drop(), ok)
        result = client_for(service).connect_login("CK", "PC-1")
        self.assertEqual((result.success, result.code, result.data), (True, 1, {"token": "t", "machine_code": "PC-1"}))
        self.assertEqual(service.seen[0].path, "/connect/48213907")
        first, second = (r.form() for r in service.seen)
        self.assertEqual((first["user_key"], first["serial"]), ("CK", "PC-1"))
        self.assertNotEqual(first["nonce"], second["nonce"])

        fixed = self.service(Drop())
        self.assertEqual(client_for(fixed).connect_login("CK", "PC-1", nonce="mine").code, ClientErrorCode.NETWORK_ERROR)
        self.assertEqual([r.form()["nonce"] for r in fixed.seen], ["mine"])

        none = self.service(ok)
        self.assertTrue(client_for(none).connect_login("CK", "PC-1", nonce=False).success)
        self.assertNotIn("nonce", none.seen[0].form())

    def test_connect_failure_is_positive_and_never_a_success(self) -> None:
        service = self.service(Reply(json={"status": False, "code": -20002, "reason": "The card key has expired", "request_id": "req-c"}))
        result = client_for(service).connect_login("CK", "PC-1")
        self.assertEqual((result.success, result.code, result.message, result.request_id), (False, ErrorCode.CARD_EXPIRED, "The card key has expired", "req-c"))

    def test_connect_reads_customized_field_names(self) -> None:
        service = self.service(Reply(json={"ok": True, "code": 1, "text": "hi", "payload": {"licence": "abc", "serial": "PC-1"}, "request_id": "r"}))
        names = {"status": "ok", "reason": "text", "data": "payload", "token": "licence", "machine_code": "serial"}
        result = client_for(service, connect_field_names=names).connect_login("CK", "PC-1")
        self.assertEqual((result.success, result.message, result.data), (True, "hi", {"token": "abc", "machine_code": "PC-1"}))

    def test_legacy_helpers_send_md5_signed_forms_and_apply_the_code_1_rule(self) -> None:
        service = self.service(Reply(json={"code": 1, "msg": "ok", "data": {"token": "t", "code": "CK", "machine_code": "PC-1"}, "request_id": "r"}), Reply(json={"code": 20005, "msg": "refused", "request_id": "r"}))
        client = client_for(service)
        self.assertTrue(client.legacy.card_login("CK", "PC-1").success)
        unbind = client.legacy.unbind("CK", "PC-1")
        self.assertEqual((unbind.success, unbind.code), (False, ErrorCode.UNBIND_REFUSED))
        self.assertEqual([r.path for r in service.seen], ["/api/card_login", "/api/unbind_machine"])
        for request in service.seen:
            fields = request.form()
            sign = fields.pop("sign")
            # `nonce` binds the signed answer to this request; it is signed like every field.
            self.assertEqual(sorted(fields), ["app", "imei", "kami", "nonce", "t"])
            self.assertEqual(sign, md5_sign(fields, "legacy-secret"))
        with self.assertRaisesRegex(ValueError, "legacy_secret"):
            client_for(service, legacy_secret=None).legacy.card_login("CK", "m")

    def test_legacy_unbind_success_is_code_1(self) -> None:
        data = {"code": "CK", "machine_code": "PC-1", "unbind_count": 1}
        service = self.service(Reply(json={"code": 1, "msg": "Unbound", "data": data, "request_id": "r"}))
        result = client_for(service).legacy.unbind("CK", "PC-1")
        self.assertEqual((result.success, result.code, result.data), (True, 1, data))

    def test_refuses_options_it_cannot_work_with(self) -> None:
        settings = dict(base_url="http://licence.test", program_id="48213907", api_secret="k")
        for change, message in [({"base_url": "licence.test"}, "http or https"), ({"api_secret": ""}, "api_secret"), ({"program_id": ""}, "program_id"), ({"response_keys": {"kid": "short"}}, "32 bytes"), ({"response_keys": {"kid": "AAAA"}}, "32 bytes")]:
            with self.subTest(message):
                with self.assertRaisesRegex(ValueError, message):
                    Client(**{**settings, **change})


if __name__ == "__main__":
    unittest.main()
