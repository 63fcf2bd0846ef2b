"""Top-up, card info and the self-service unbind against a scripted service (the twin of sdk/test/self-service.test.ts)."""

from __future__ import annotations

import unittest

from cardkey_client import ClientErrorCode, ErrorCode
from support import Drop, Reply, SeenRequest, standard_failure
from test_client import ServiceTestCase, client_for

TOPPED = {"id": 7, "code": "CK", "kind": "time", "status": "active", "expires_at": "2027-02-01 00:00:00", "uses_left": None}
INFO = {
    "kind": "count",
    "status": "active",
    "activated_at": "2026-11-01 10:00:00",
    "expires_at": None,
    "uses_left": 41,
    "device_limit": 2,
    "concurrent_limit": 1,
    "devices": [{"machine_code": "PC-1", "bound_at": "2026-11-01 10:00:00", "last_login_at": "2026-11-20 08:00:00"}],
    "unbind": {"enabled": True, "deduct_seconds": 3600, "remaining": None},
    "added_later": "kept",
}
UNBOUND = {"id": 7, "code": "CK", "machine_code": "PC-1", "expires_at": "2027-01-01 00:00:00", "unbind_count": 1}


def standard(code: int, data: dict, success: bool = True) -> Reply:
    return Reply(json={"code": code, "success": success, "msg": "ok", "data": data, "request_id": "r"})


def refusal(code: int, msg: str) -> Reply:
    return Reply(json={"code": code, "success": False, "msg": msg, "request_id": "r-refused"})


class SelfServiceTestCase(ServiceTestCase):
    def assert_signed_json(self, request: SeenRequest, path: str, fields: dict) -> None:
        """A POST of exactly these JSON fields to this path, signed with the api_secret."""
        self.assertEqual((request.method, request.path), ("POST", path))
        self.assertEqual(request.headers["content-type"], "application/json")
        self.assertEqual(request.json(), fields)
        self.assertRegex(request.headers["x-svc-nonce"], r"^[A-Za-z0-9_.:-]{8,96}$")
        self.assert_hmac(request, path)


class CardTopupTest(SelfServiceTestCase):
    def test_signs_app_card_key_topup_key_and_answers_the_renewed_card(self) -> None:
        service = self.service(standard(0, TOPPED))
        result = client_for(service).card_topup(card_key="CK", topup_key="TOP-1")
        self.assertEqual((result.success, result.code, result.data), (True, 0, TOPPED))
        self.assert_signed_json(service.seen[0], "/api/v1/cards/topup", {"app": "48213907", "card_key": "CK", "topup_key": "TOP-1"})

    def test_topup_refused_with_the_reason_and_card_invalid_by_name(self) -> None:
        reason = "The top-up card is a count card; this card is a time card"
        service = self.service(refusal(20008, reason), refusal(20001, "The card key is invalid"))
        client = client_for(service)
        refused = client.card_topup("CK", "TOP-1")
        self.assertEqual((refused.success, refused.code, refused.message, refused.request_id), (False, ErrorCode.TOPUP_REFUSED, reason, "r-refused"))
        self.assertEqual(client.card_topup("NOPE", "TOP-1").code, ErrorCode.CARD_INVALID)

    def test_a_success_only_with_code_0_and_never_retried(self) -> None:
        service = self.service(standard(1, TOPPED), Drop())
        client = client_for(service)
        one = client.card_topup("CK", "TOP-1")
        self.assertEqual((one.success, one.code, one.data), (False, ClientErrorCode.UNEXPECTED_RESPONSE, None))
        self.assertEqual(client.card_topup("CK", "TOP-1").code, ClientErrorCode.NETWORK_ERROR)
        self.assertEqual(len(service.seen), 2, "a repeat would find the top-up card consumed")


class CardInfoTest(SelfServiceTestCase):
    def test_signs_app_card_key_and_reads_state_devices_and_unbind_rules(self) -> None:
        service = self.service(standard(0, INFO))
        result = client_for(service).card_info(card_key="CK")
        self.assertTrue(result.success)
        self.assertEqual(result.data, INFO)
        self.assertEqual(result.data["devices"][0]["last_login_at"], "2026-11-20 08:00:00")
        self.assertIsNone(result.data["unbind"]["remaining"])
        self.assert_signed_json(service.seen[0], "/api/v1/cards/info", {"app": "48213907", "card_key": "CK"})

    def test_retried_after_a_network_failure_signed_afresh(self) -> None:
        service = self.service(Drop(), standard(0, INFO))
        self.assertTrue(client_for(service).card_info("CK").success)
        self.assertEqual(len(service.seen), 2)
        self.assertNotEqual(service.seen[0].headers["x-svc-nonce"], service.seen[1].headers["x-svc-nonce"])
        for request in service.seen:
            self.assert_signed_json(request, "/api/v1/cards/info", {"app": "48213907", "card_key": "CK"})

    def test_a_refusal_has_its_code_and_code_1_is_not_its_success(self) -> None:
        service = self.service(refusal(20001, "The card key is invalid"), standard(1, INFO))
        client = client_for(service)
        self.assertEqual(client.card_info("NOPE").code, ErrorCode.CARD_INVALID)
        self.assertFalse(client.card_info("CK").success)


class CardUnbindTest(SelfServiceTestCase):
    def test_signs_app_card_key_machine_id_and_its_success_is_code_1(self) -> None:
        service = self.service(Reply(json={"code": 1, "success": True, "msg": "Unbound", "data": UNBOUND, "request_id": "r"}))
        result = client_for(service).card_unbind(card_key="CK", machine_id="PC-1")
        self.assertEqual((result.success, result.code, result.message, result.data), (True, 1, "Unbound", UNBOUND))
        self.assert_signed_json(service.seen[0], "/api/v1/cards/unbind", {"app": "48213907", "card_key": "CK", "machine_id": "PC-1"})

    def test_takes_no_other_answer_for_a_success(self) -> None:
        for body in (
            {"code": 0, "success": True, "msg": "ok", "data": UNBOUND},
            {"code": 1, "success": False, "msg": "contradiction", "data": UNBOUND},
            {"success": True, "msg": "no code", "data": UNBOUND},
            {"code": True, "success": True, "msg": "true is not 1", "data": UNBOUND},
        ):
            with self.subTest(body=body):
                result = client_for(self.service(Reply(json=body))).card_unbind("CK", "PC-1")
                self.assertEqual((result.success, result.code, result.data), (False, ClientErrorCode.UNEXPECTED_RESPONSE, None))

    def test_unbind_refused_and_the_card_refusals_by_name(self) -> None:
        message = "Unbinding is not possible for this card and device"
        service = self.service(refusal(20005, message), refusal(20003, "The card key is banned"))
        client = client_for(service)
        refused = client.card_unbind("CK", "PC-9")
        self.assertEqual((refused.success, refused.code, refused.message), (False, ErrorCode.UNBIND_REFUSED, message))
        self.assertEqual(client.card_unbind("CK", "PC-1").code, ErrorCode.CARD_BANNED)

    def test_says_why_an_unbind_was_refused_and_when_it_becomes_possible(self) -> None:
        limit = {"code": 20005, "success": False, "msg": "Unbind limit reached", "data": {"reason": "limit", "retry_at": "2026-12-01 10:00:00"}, "request_id": "r1"}
        disabled = {"code": 20005, "success": False, "msg": "Unbinding is off", "data": {"reason": "disabled", "retry_at": None}, "request_id": "r2"}
        client = client_for(self.service(Reply(json=limit), Reply(json=disabled)))
        first = client.card_unbind("CK", "PC-1")
        self.assertEqual((first.success, first.code, first.unbind_reason, first.retry_at), (False, ErrorCode.UNBIND_REFUSED, "limit", "2026-12-01 10:00:00"))
        second = client.card_unbind("CK", "PC-1")
        self.assertEqual((second.unbind_reason, second.retry_at), ("disabled", None))

    def test_never_retried_each_unbind_may_deduct_time(self) -> None:
        service = self.service(Drop())
        self.assertEqual(client_for(service).card_unbind("CK", "PC-1").code, ClientErrorCode.NETWORK_ERROR)
        self.assertEqual(len(service.seen), 1)

    def test_leaves_the_generic_standard_rule_of_the_other_routes_as_it_was(self) -> None:
        # The SDK login keeps "success, or where it is absent code 0 or 1": the unbind rule is its own route's.
        service = self.service(Reply(json={"code": 1, "msg": "ok", "data": {"machine_code": "PC-1", "session_token": "s", "session_expires_at": "x"}}))
        self.assertTrue(client_for(service).card_login("CK", "PC-1").success)


class NewCodesTest(SelfServiceTestCase):
    def test_are_in_the_catalog_under_their_names(self) -> None:
        self.assertEqual((ErrorCode.CARD_NO_USES_LEFT, ErrorCode.SEATS_FULL, ErrorCode.TOPUP_REFUSED), (20006, 20007, 20008))

    def test_a_card_login_refused_with_them_is_a_failure_with_that_code_and_holds_no_session(self) -> None:
        for code, message in ((ErrorCode.CARD_NO_USES_LEFT, "The card has no uses left"), (ErrorCode.SEATS_FULL, "Every seat of this card is in use")):
            with self.subTest(code=code):
                client = client_for(self.service(refusal(code, message)))
                result = client.card_login("CK", "PC-1")
                self.assertEqual((result.success, result.code, result.message), (False, code, message))
                self.assertIsNone(client.session)
        self.assertEqual(client_for(self.service(standard_failure(ErrorCode.SEATS_FULL))).card_login("CK", "PC-2").code, ErrorCode.SEATS_FULL)


TRIAL_CARD = {"code": "TRIAL-1", "expires_at": "2027-01-01 00:00:00", "machine_code": "PC-1", "trial": True, "features": ["basic"]}


class CardTrialTest(SelfServiceTestCase):
    """decisions §21: a device's one trial card."""

    def test_signs_app_machine_id_and_answers_the_bound_trial_card(self) -> None:
        service = self.service(standard(0, TRIAL_CARD))
        result = client_for(service).card_trial(machine_id="PC-1")
        self.assertEqual((result.success, result.code, result.data, result.trial, result.features), (True, 0, TRIAL_CARD, True, ["basic"]))
        self.assert_signed_json(service.seen[0], "/api/v1/cards/trial", {"app": "48213907", "machine_id": "PC-1"})

    def test_trial_used_by_name_and_an_answer_for_another_device_refused(self) -> None:
        service = self.service(refusal(20011, "This device has already used its trial"), standard(0, {**TRIAL_CARD, "machine_code": "PC-2"}))
        client = client_for(service)
        self.assertEqual((client.card_trial("PC-1").code, ErrorCode.TRIAL_USED), (20011, 20011))
        relayed = client.card_trial("PC-1")
        self.assertEqual((relayed.success, relayed.code), (False, ClientErrorCode.UNTRUSTED_RESPONSE))


if __name__ == "__main__":
    unittest.main()
