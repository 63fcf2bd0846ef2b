"""Each family's success rule and the shape of results (the twin of sdk/test/result.test.ts)."""

from __future__ import annotations

import json
import unittest

from cardkey_client import ClientErrorCode, ErrorCode, RawAnswer, is_success, judge


def answer(body, status=200, headers=None) -> RawAnswer:
    text = body if isinstance(body, str) else json.dumps(body)
    return RawAnswer(status=status, headers={"content-type": "application/json", **(headers or {})}, body=text.encode("utf-8"))


RULES = [
    ("connect", {"status": True, "code": 1, "reason": "ok", "data": {}}, True),
    ("connect", {"status": False, "code": -20001, "reason": "no"}, False),
    ("connect", {"status": "true", "code": 1, "reason": "ok"}, False),
    ("connect", {"status": 1, "code": 1, "reason": "1 is not true"}, False),
    ("connect", {"code": 0, "reason": "code 0 is never a Connect success"}, False),
    ("connect", {"code": 1, "reason": "neither is code 1 without status"}, False),
    ("standard", {"code": 0, "success": True, "msg": "ok"}, True),
    ("standard", {"code": 0, "msg": "ok"}, True),
    ("standard", {"code": 1, "msg": "unbind answers 1"}, True),
    ("standard", {"code": 20001, "success": False, "msg": "no"}, False),
    ("standard", {"code": 0, "success": False, "msg": "success false wins"}, False),
    ("standard", {"code": 20001, "msg": "no"}, False),
    ("standard", {"code": 20001, "success": "true", "msg": "a string is not a boolean"}, False),
    ("standard", {"code": False, "msg": "false is not 0"}, False),
    ("legacy", {"code": 1, "msg": "ok", "data": {}}, True),
    ("legacy", {"code": 1.0, "msg": "1.0 is the number 1"}, True),
    ("legacy", {"code": True, "msg": "true is not 1"}, False),
    ("legacy", {"code": "1", "msg": "a string is not 1"}, False),
    ("legacy", {"code": 0, "msg": "legacy success is code 1 only"}, False),
    ("legacy", {"code": 20002, "msg": "expired"}, False),
]


class SuccessRulesTest(unittest.TestCase):
    def test_each_family_rule(self) -> None:
        for family, body, success in RULES:
            with self.subTest(family=family, body=body):
                self.assertIs(judge(family, answer(body)).success, success)

    def test_no_catalog_code_passes_any_rule(self) -> None:
        codes = [value for name, value in vars(ErrorCode).items() if name.isupper()]
        self.assertGreater(len(codes), 30)
        for code in codes:
            with self.subTest(code=code):
                self.assertFalse(judge("connect", answer({"status": False, "code": -code, "reason": "x"})).success)
                self.assertFalse(judge("standard", answer({"code": code, "success": False, "msg": "x"})).success)
                self.assertFalse(judge("standard", answer({"code": code, "msg": "x"})).success)
                self.assertFalse(judge("legacy", answer({"code": code, "msg": "x"})).success)

    def test_refuses_an_unknown_family(self) -> None:
        with self.assertRaises(ValueError):
            judge("v3", answer({"code": 0}))


ROUTE_RULES = [
    (1, {"code": 1, "success": True, "msg": "Unbound"}, True),
    (1, {"code": 1, "msg": "success absent: the code decides"}, True),
    (1, {"code": 1.0, "success": True, "msg": "1.0 is the number 1"}, True),
    (1, {"code": 0, "success": True, "msg": "code 0 is not the unbind success"}, False),
    (1, {"code": 1, "success": False, "msg": "success false wins"}, False),
    (1, {"success": True, "msg": "no code"}, False),
    (1, {"code": "1", "success": True, "msg": "a string is not 1"}, False),
    (1, {"code": True, "success": True, "msg": "true is not 1"}, False),
    (1, {"code": 20005, "success": False, "msg": "refused"}, False),
    (0, {"code": 0, "success": True, "msg": "ok"}, True),
    (0, {"code": 1, "success": True, "msg": "code 1 is not this route's success"}, False),
    (0, {"code": False, "success": True, "msg": "false is not 0"}, False),
    (0, {"code": 20008, "success": False, "msg": "refused"}, False),
]


class RouteSuccessCodesTest(unittest.TestCase):
    def test_each_route_rule(self) -> None:
        for success_code, body, success in ROUTE_RULES:
            with self.subTest(success_code=success_code, body=body):
                self.assertIs(judge("standard", answer(body), success_code=success_code).success, success)
                self.assertIs(is_success("standard", body, success_code), success)

    def test_a_refused_success_looking_answer_is_unexpected_never_code_0_or_1(self) -> None:
        r = judge("standard", answer({"code": 0, "success": True, "msg": "ok", "data": {"id": 1}}), success_code=1)
        self.assertEqual((r.success, r.code, r.data), (False, ClientErrorCode.UNEXPECTED_RESPONSE, None))
        self.assertIn("code 0 is neither this route's success nor a failure code", r.message)
        self.assertEqual(judge("standard", answer({"code": 0, "success": False, "msg": "x"})).code, ClientErrorCode.UNEXPECTED_RESPONSE)
        self.assertEqual(judge("legacy", answer({"code": 0, "msg": "x"})).code, ClientErrorCode.UNEXPECTED_RESPONSE)

    def test_keeps_the_catalog_code_and_message_of_a_refusal(self) -> None:
        r = judge("standard", answer({"code": 20005, "success": False, "msg": "Unbinding is not possible", "request_id": "q"}), success_code=1)
        self.assertEqual((r.code, r.message, r.request_id), (ErrorCode.UNBIND_REFUSED, "Unbinding is not possible", "q"))

    def test_gives_an_unbind_refused_its_reason_and_retry_time_in_either_envelope(self) -> None:
        refusal = {"code": 20005, "success": False, "msg": "Too recently", "data": {"reason": "cooldown", "retry_at": "2026-11-24 08:15:00"}}
        r = judge("standard", answer(refusal), success_code=1)
        self.assertEqual((r.code, r.unbind_reason, r.retry_at), (ErrorCode.UNBIND_REFUSED, "cooldown", "2026-11-24 08:15:00"))
        r = judge("legacy", answer({"code": 20005, "msg": "Not bound", "data": {"reason": "not_bound", "retry_at": None}}))
        self.assertEqual((r.unbind_reason, r.retry_at), ("not_bound", None))
        # An older service's refusal without data, and another code's data.reason, say nothing of an unbind.
        r = judge("standard", answer({"code": 20005, "success": False, "msg": "Refused"}), success_code=1)
        self.assertEqual((r.unbind_reason, r.retry_at), (None, None))
        r = judge("standard", answer({"code": 20008, "success": False, "msg": "No", "data": {"reason": "limit", "retry_at": "x"}}))
        self.assertEqual((r.unbind_reason, r.retry_at), (None, None))

    def test_is_a_standard_family_rule_of_0_or_1_only(self) -> None:
        for family, code in (("legacy", 1), ("connect", 0), ("standard", 2), ("standard", True)):
            with self.subTest(family=family, code=code):
                with self.assertRaisesRegex(ValueError, "standard-family"):
                    judge(family, answer({"code": 1}), success_code=code)


class ResultsTest(unittest.TestCase):
    def test_a_connect_failure_has_its_positive_catalog_code_reason_request_and_error_ids(self) -> None:
        r = judge("connect", answer({"status": False, "code": -50000, "reason": "System error", "request_id": "req-1", "error_id": "err-1"}, 500))
        self.assertEqual(
            (r.success, r.code, r.message, r.request_id, r.error_id, r.http_status),
            (False, ErrorCode.SYSTEM_ERROR, "System error", "req-1", "err-1", 500),
        )

    def test_keeps_unknown_fields_in_data_and_body(self) -> None:
        r = judge("standard", answer({"code": 0, "success": True, "msg": "ok", "token": "t", "extra_top": 1, "data": {"id": 3, "added_later": "x"}, "request_id": "r"}))
        self.assertEqual(r.data, {"id": 3, "added_later": "x"})
        self.assertEqual(r.body["extra_top"], 1)
        self.assertEqual(r.message, "ok")

    def test_a_success_without_a_numeric_code_gets_the_family_success_code(self) -> None:
        self.assertEqual(judge("standard", answer({"success": True, "msg": "ok"})).code, 0)
        self.assertEqual(judge("connect", answer({"status": True, "reason": "ok"})).code, 1)

    def test_a_legacy_device_not_bound_refusal_is_a_failure_with_its_code(self) -> None:
        r = judge("legacy", answer({"code": 20010, "msg": "This device is not bound to the card", "request_id": "req-nb"}))
        self.assertEqual((r.success, r.code, r.request_id, r.http_status), (False, ErrorCode.DEVICE_NOT_BOUND, "req-nb", 200))

    def test_takes_the_request_id_from_the_header_when_the_body_has_none(self) -> None:
        self.assertEqual(judge("legacy", answer({"code": 20001, "msg": "no"}, 200, {"x-request-id": "from-header"})).request_id, "from-header")

    def test_reads_retry_after(self) -> None:
        r = judge("standard", answer({"code": 10302, "success": False, "msg": "slow down"}, 429, {"retry-after": "7"}))
        self.assertEqual((r.code, r.retry_after_seconds), (ErrorCode.RATE_LIMITED, 7))
        self.assertIsNone(judge("standard", answer({"code": 10302, "msg": "x"}, 429, {"retry-after": "soon"})).retry_after_seconds)

    def test_html_an_empty_body_a_redirect_and_non_objects_are_unexpected_never_a_success(self) -> None:
        answers = [
            answer("<html>login</html>", 200, {"content-type": "text/html"}),
            answer("", 200),
            answer({"code": 0, "success": True, "msg": "ok"}, 302, {"location": "/elsewhere"}),
            answer("[1,2]", 200),
            answer('{"code": NaN, "status": true}', 200),
        ]
        for raw in answers:
            for family in ("connect", "standard", "legacy"):
                with self.subTest(family=family, body=raw.text, status=raw.status):
                    r = judge(family, raw)
                    self.assertFalse(r.success)
                    self.assertEqual(r.code, ClientErrorCode.UNEXPECTED_RESPONSE)
                    self.assertIn("check the service address", r.message)

    def test_a_failure_without_a_code_is_unexpected(self) -> None:
        r = judge("standard", answer({"success": False}))
        self.assertEqual((r.success, r.code), (False, ClientErrorCode.UNEXPECTED_RESPONSE))

    def test_reads_a_customized_connect_answer_through_its_field_names(self) -> None:
        names = {"status": "ok", "reason": "text", "data": "payload", "token": "licence", "expires_at": "until"}
        body = {"ok": True, "code": 1, "text": "welcome", "payload": {"licence": "abc", "until": "2027-01-01 00:00:00", "device_limit": 2, "extra": True}, "request_id": "r"}
        r = judge("connect", answer(body), names)
        self.assertTrue(r.success)
        self.assertEqual(r.message, "welcome")
        self.assertEqual(r.data, {"token": "abc", "expires_at": "2027-01-01 00:00:00", "device_limit": 2, "extra": True})
        self.assertEqual(r.body, body, "body stays the answer as received")
        failure = judge("connect", answer({"ok": False, "code": -20002, "text": "expired", "request_id": "r"}), names)
        self.assertEqual((failure.success, failure.code, failure.message), (False, ErrorCode.CARD_EXPIRED, "expired"))


if __name__ == "__main__":
    unittest.main()


class SessionEndTest(unittest.TestCase):
    """Why a session ended (decisions §18), the twin of the TypeScript client's test."""

    def test_gives_ended_by_and_ended_at_of_a_heartbeat_refusal_and_nothing_of_other_answers(self) -> None:
        ended = {"ended_by": "card_banned", "ended_at": "2026-11-26 10:42:00"}
        banned = judge("standard", answer({"code": 30101, "success": False, "msg": "x", "data": ended}, 401))
        self.assertEqual((banned.code, banned.ended_by, banned.ended_at), (ErrorCode.SESSION_INVALID, "card_banned", "2026-11-26 10:42:00"))
        unknown = judge("standard", answer({"code": 30101, "success": False, "msg": "x", "data": {"ended_by": "unknown", "ended_at": None}}, 401))
        self.assertEqual((unknown.ended_by, unknown.ended_at), ("unknown", None))
        older = judge("standard", answer({"code": 30101, "success": False, "msg": "x"}, 401))
        self.assertIsNone(older.ended_by)
        beat = judge("standard", answer({"code": 0, "success": True, "msg": "ok", "data": {"ended_by": "card_banned"}}))
        self.assertIsNone(beat.ended_by)


class TrialTest(unittest.TestCase):
    """decisions §21: data.trial of a successful card answer, in every family."""

    def test_gives_data_trial_of_a_success_booleans_only_and_nothing_elsewhere(self) -> None:
        self.assertIs(judge("standard", answer({"code": 0, "success": True, "msg": "ok", "data": {"id": 1, "trial": True}})).trial, True)
        self.assertIs(judge("legacy", answer({"code": 1, "msg": "ok", "data": {"trial": False}})).trial, False)
        self.assertIs(judge("connect", answer({"status": True, "code": 1, "reason": "ok", "data": {"trial": True}})).trial, True)
        self.assertIsNone(judge("standard", answer({"code": 0, "msg": "ok", "data": {"trial": "yes"}})).trial)
        self.assertIsNone(judge("standard", answer({"code": 0, "msg": "ok", "data": {"id": 1}})).trial)
        self.assertIsNone(judge("standard", answer({"code": 20011, "msg": "no", "data": {"trial": True}})).trial)


class FeaturesTest(unittest.TestCase):
    """decisions §19: the card type's features of a successful card answer, in every family."""

    def test_gives_data_features_of_a_success_strings_only_and_nothing_elsewhere(self) -> None:
        features = ["pro", "export.pdf"]
        self.assertEqual(judge("standard", answer({"code": 0, "success": True, "msg": "ok", "data": {"id": 1, "features": features}})).features, features)
        self.assertEqual(judge("legacy", answer({"code": 1, "msg": "ok", "data": {"features": []}})).features, [])
        self.assertEqual(judge("connect", answer({"status": True, "code": 1, "reason": "ok", "data": {"features": features}})).features, features)
        self.assertEqual(judge("standard", answer({"code": 0, "msg": "ok", "data": {"features": ["pro", 7, None]}})).features, ["pro"])
        self.assertIsNone(judge("standard", answer({"code": 0, "msg": "ok", "data": {"id": 1}})).features)
        self.assertIsNone(judge("standard", answer({"code": 20001, "msg": "no", "data": {"features": features}})).features)
