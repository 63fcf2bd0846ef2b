"""Live tests: every client call against a real service (run by test/e2e/clients/python-client.e2e-spec.ts).

The Jest spec boots the service, arranges a program, its cards, versions and a program user, and
runs this module with the environment below. Run by hand against a service of your own:

    BASE_URL=... PROGRAM_ID=... API_SECRET=... LEGACY_SECRET=... PROJECT_ID=... ADMIN_TOKEN=... \\
    CARD_SDK=... CARD_LOOP=... CARD_V3=... CARD_CONNECT=... CARD_LEGACY=... CARD_PINNED=... CARD_RESTORE=... \\
    USER_NAME=... USER_PASSWORD=... RESPONSE_KEYS='{"kid": "base64url"}' \\
    RELAY_URL=... RELAY_TYPED_KEY=... RELAY_MACHINE=... CARD_RELAY_GENUINE=... \\
    SEALED_PROGRAMS='[{"mode": "aes", "program_id": ..., "api_secret": ..., "legacy_secret": ..., "transport_key": ..., "card": ...}]' \\
    python3 -m unittest discover -s tests_live -v

The program must have the versions 1.0.0 and 1.2.0 (forced), Connect open, unbinding on and
``offline_grace_seconds`` > 0; every card unused; USER_NAME registered with USER_PASSWORD.
RELAY_URL is a relay in front of the service that swaps RELAY_TYPED_KEY for a valid card of its own
and a card heartbeat's token for that card's session on RELAY_MACHINE (test/support/relay.ts).
Without BASE_URL every test is skipped.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import threading
import time
import unittest
import urllib.request

from cardkey_client import Client, ClientErrorCode, ErrorCode, LegacyTransport, Session

ENV = os.environ
LIVE = bool(ENV.get("BASE_URL"))
TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")
REQUEST_ID = re.compile(r"^[0-9a-f]{32}$")
#: The RFC 8032 test key: a valid key, but not this program's.
FOREIGN_KEYS = {"21fe31dfa154a261": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}


def client(**options) -> Client:
    settings = dict(base_url=ENV["BASE_URL"], program_id=ENV["PROGRAM_ID"], api_secret=ENV["API_SECRET"], legacy_secret=ENV["LEGACY_SECRET"], retry_delay=0.01)
    return Client(**{**settings, **options})


def revoke_card_sessions(card_id: int) -> None:
    """Forced offline through the admin API, as the project owner does it."""
    request = urllib.request.Request(
        f"{ENV['BASE_URL']}/admin/v1/projects/{ENV['PROJECT_ID']}/sessions/revoke",
        data=json.dumps({"card_id": card_id}).encode("utf-8"),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {ENV['ADMIN_TOKEN']}"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        assert answer.status == 200, answer.status


@unittest.skipUnless(LIVE, "BASE_URL is not set: no service to test against")
class CardLoginTest(unittest.TestCase):
    def test_sdk_card_login_holds_a_session_and_renews_it_by_heartbeat(self) -> None:
        c = client()
        login = c.card_login(ENV["CARD_SDK"], "py-sdk-pc")
        self.assertEqual((login.success, login.code, login.http_status), (True, 0, 200), login)
        self.assertRegex(login.request_id, REQUEST_ID)
        data = login.data
        self.assertEqual((data["code"], data["machine_code"], data["statecode"], data["heartbeat_interval_seconds"]), (ENV["CARD_SDK"], "py-sdk-pc", "active", 60))
        self.assertRegex(data["session_token"], r"^[\w-]{43}$")
        self.assertRegex(data["token"], r"^[\w-]{43}$")
        self.assertRegex(data["session_expires_at"], TIMESTAMP)
        self.assertEqual(c.session, Session("card", data["session_token"], "py-sdk-pc", data["session_expires_at"], 60, card_id=data["id"]))

        beat = c.card_heartbeat()
        self.assertEqual((beat.success, beat.code, beat.data["card_id"]), (True, 0, data["id"]), beat)
        self.assertIsInstance(beat.data["server_time"], int)
        self.assertEqual(c.user_heartbeat().code, ClientErrorCode.NO_SESSION)

    def test_the_heartbeat_loop_stops_and_reports_when_the_admin_revokes_the_session(self) -> None:
        c = client()
        login = c.card_login(ENV["CARD_LOOP"], "py-loop-pc")
        self.assertTrue(login.success, login)
        beats, ended, errors = [], [], []
        two_beats = threading.Event()

        def on_beat(result) -> None:
            beats.append(result)
            if len(beats) >= 2:
                two_beats.set()

        loop = c.start_heartbeat(interval=0.05, on_beat=on_beat, on_session_ended=ended.append, on_error=errors.append)
        try:
            self.assertTrue(two_beats.wait(10), "two heartbeats succeeded")
            revoke_card_sessions(login.data["id"])
            self.assertTrue(loop.join(10), "the loop stopped")
        finally:
            loop.stop()
        self.assertEqual([(r.success, r.code, r.http_status) for r in ended], [(False, ErrorCode.SESSION_INVALID, 401)])
        self.assertEqual(errors, [])
        self.assertIsNone(c.session)
        count = len(beats)
        time.sleep(0.2)
        self.assertEqual(len(beats), count, "no beat after the end")

    def test_restore_session_goes_on_heartbeating_a_kept_session(self) -> None:
        first = client()
        self.assertTrue(first.card_login(ENV["CARD_RESTORE"], "py-restore-pc").success)
        saved = first.session.to_dict()

        wrong_type = client()
        wrong_type.restore_session(Session.from_dict({**saved, "type": "app_user"}))
        mismatch = wrong_type.user_heartbeat()
        self.assertEqual((mismatch.success, mismatch.code), (False, ErrorCode.SESSION_TYPE_MISMATCH))
        self.assertIsNone(wrong_type.session, "a session-ending answer clears it")

        restarted = client()
        restarted.restore_session(Session.from_dict(saved))
        beat = restarted.card_heartbeat()
        self.assertTrue(beat.success, beat)

    def test_v3_login_gives_a_token_and_no_session(self) -> None:
        c = client()
        login = c.v3_card_login(ENV["CARD_V3"], "py-v3-pc")
        self.assertEqual((login.success, login.code, login.data["machine_code"], login.data["statecode"]), (True, 0, "py-v3-pc", "active"), login)
        self.assertRegex(login.data["token"], r"^[\w-]{43}$")
        self.assertNotIn("session_token", login.data)
        self.assertIsNone(c.session)

    def test_connect_login_and_a_replayed_nonce(self) -> None:
        c = client()
        login = c.connect_login(ENV["CARD_CONNECT"], "py-connect-pc")
        self.assertEqual((login.success, login.code, login.data["machine_code"]), (True, 1, "py-connect-pc"), login)
        self.assertRegex(login.data["token"], r"^[\w-]{43}$")
        nonce = "py-" + secrets.token_hex(8)
        self.assertTrue(c.connect_login(ENV["CARD_CONNECT"], "py-connect-pc", nonce=nonce).success)
        replay = c.connect_login(ENV["CARD_CONNECT"], "py-connect-pc", nonce=nonce)
        self.assertEqual((replay.success, replay.code, replay.http_status), (False, ErrorCode.NONCE_REPLAYED, 409))

    def test_legacy_login_and_unbind(self) -> None:
        c = client()
        login = c.legacy.card_login(ENV["CARD_LEGACY"], "py-legacy-pc")
        self.assertEqual((login.success, login.code, login.data["machine_code"]), (True, 1, "py-legacy-pc"), login)
        unbind = c.legacy.unbind(ENV["CARD_LEGACY"], "py-legacy-pc")
        self.assertEqual((unbind.success, unbind.code, unbind.data["unbind_count"]), (True, 1, 1), unbind)
        again = c.legacy.unbind(ENV["CARD_LEGACY"], "py-legacy-pc")
        self.assertEqual((again.success, again.code, again.unbind_reason, again.retry_at), (False, ErrorCode.UNBIND_REFUSED, "not_bound", None), "the device is no longer bound")
        wrong = client(legacy_secret="not-the-secret").legacy.card_login(ENV["CARD_LEGACY"], "py-legacy-pc")
        self.assertEqual((wrong.success, wrong.code), (False, ErrorCode.SIGNATURE_INVALID))

    def test_legacy_login_and_unbind_through_each_transport_encryption(self) -> None:
        programs = json.loads(ENV.get("SEALED_PROGRAMS", "[]"))
        self.assertEqual(sorted(p["mode"] for p in programs), ["aes", "aes-gcm", "rc4"])
        for program in programs:
            with self.subTest(mode=program["mode"]):
                c = client(
                    program_id=program["program_id"],
                    api_secret=program["api_secret"],
                    legacy_secret=program["legacy_secret"],
                    legacy_transport=LegacyTransport(program["mode"], program["transport_key"]),
                )
                login = c.legacy.card_login(program["card"], "py-sealed-pc")
                self.assertEqual((login.success, login.code, login.data["machine_code"]), (True, 1, "py-sealed-pc"), login)
                unbind = c.legacy.unbind(program["card"], "py-sealed-pc")
                self.assertEqual((unbind.success, unbind.data["unbind_count"]), (True, 1), unbind)

    def test_a_refused_login_is_a_failure_with_its_code(self) -> None:
        c = client()
        refused = c.card_login("NO-SUCH-CARD-KEY", "py-sdk-pc")
        self.assertEqual((refused.success, refused.code, refused.http_status), (False, ErrorCode.CARD_INVALID, 200))
        self.assertTrue(refused.message)
        self.assertRegex(refused.request_id, REQUEST_ID)
        self.assertIsNone(c.session)
        for family_login in (c.v3_card_login, c.legacy.card_login):
            self.assertEqual(family_login("NO-SUCH-CARD-KEY", "m").code, ErrorCode.CARD_INVALID)
        connect = c.connect_login("NO-SUCH-CARD-KEY", "m")
        self.assertEqual((connect.success, connect.code), (False, ErrorCode.CARD_INVALID), "Connect's -20001 comes back positive")
        wrong_secret = client(api_secret="not-the-secret").card_login(ENV["CARD_SDK"], "m")
        self.assertEqual((wrong_secret.success, wrong_secret.code, wrong_secret.http_status), (False, ErrorCode.SIGNATURE_INVALID, 401))
        unknown = client(program_id="00000001").card_login(ENV["CARD_SDK"], "m")
        self.assertEqual((unknown.success, unknown.code, unknown.http_status), (False, ErrorCode.PROGRAM_NOT_FOUND, 404))


@unittest.skipUnless(LIVE, "BASE_URL is not set: no service to test against")
class UsersAndVersionTest(unittest.TestCase):
    def test_register_login_and_user_heartbeat(self) -> None:
        c = client()
        fresh = "py." + secrets.token_hex(6)
        registered = c.user_register(fresh, "pass-word-1", "py-user-pc")
        self.assertEqual((registered.success, registered.data["username"], registered.data["status"]), (True, fresh, "active"), registered)
        taken = c.user_register(ENV["USER_NAME"], "pass-word-1", "py-user-pc")
        self.assertEqual((taken.success, taken.code), (False, ErrorCode.USERNAME_TAKEN))

        wrong = c.user_login(ENV["USER_NAME"], "wrong-password", "py-user-pc")
        self.assertEqual((wrong.success, wrong.code), (False, ErrorCode.BAD_CREDENTIALS))
        self.assertIsNone(c.session)
        login = c.user_login(ENV["USER_NAME"], ENV["USER_PASSWORD"], "py-user-pc")
        self.assertTrue(login.success, login)
        self.assertEqual((login.data["profile"]["username"], login.data["machine_id"]), (ENV["USER_NAME"], "py-user-pc"))
        self.assertEqual((c.session.type, c.session.machine_id), ("app_user", "py-user-pc"))
        beat = c.user_heartbeat()
        self.assertEqual((beat.success, beat.data["user_id"]), (True, login.data["profile"]["user_id"]), beat)
        self.assertEqual(c.card_heartbeat().code, ClientErrorCode.NO_SESSION)

    def test_version_check(self) -> None:
        c = client()
        older = c.check_version("1.1.0")
        self.assertTrue(older.success, older)
        self.assertEqual(
            {k: older.data[k] for k in ("latest_version", "update_available", "force_update")},
            {"latest_version": "1.2.0", "update_available": True, "force_update": True},
        )
        current = c.check_version("1.2.0")
        self.assertEqual((current.data["update_available"], current.data["force_update"]), (False, False))
        bad = c.check_version("not a version")
        self.assertEqual((bad.success, bad.code, bad.http_status), (False, ErrorCode.BAD_REQUEST, 400))


@unittest.skipUnless(LIVE, "BASE_URL is not set: no service to test against")
class SignedAnswersTest(unittest.TestCase):
    def test_trusts_only_the_pinned_keys_on_every_family_and_verifies_a_licence_offline(self) -> None:
        c = client(response_keys=json.loads(ENV["RESPONSE_KEYS"]))
        card = ENV["CARD_PINNED"]
        self.assertTrue(c.card_login(card, "py-pinned-pc").success)
        self.assertTrue(c.card_heartbeat().success)
        self.assertTrue(c.v3_card_login(card, "py-pinned-pc").success)
        self.assertTrue(c.connect_login(card, "py-pinned-pc").success)
        self.assertTrue(c.legacy.card_login(card, "py-pinned-pc").success)
        self.assertTrue(c.check_version("1.0.0").success)
        refused = c.card_login(card, "py-second-pc")
        self.assertEqual((refused.success, refused.code), (False, ErrorCode.DEVICE_LIMIT_REACHED), "a signed refusal is believed as a refusal")

        checkout = c.card_checkout(card, "py-pinned-pc", ttl_seconds=600)
        self.assertTrue(checkout.success, checkout)
        check = c.check_licence(checkout.data["licence"], card, "py-pinned-pc")
        self.assertTrue(check.valid, check.reason)
        self.assertEqual((check.payload["program_id"], check.payload["machine_id"]), (ENV["PROGRAM_ID"], "py-pinned-pc"))
        self.assertFalse(c.check_licence(checkout.data["licence"], card, "another-pc").valid)

        untrusted = client(response_keys=FOREIGN_KEYS).card_login(card, "py-pinned-pc")
        self.assertEqual((untrusted.success, untrusted.code), (False, ClientErrorCode.UNTRUSTED_RESPONSE))

    def test_a_relay_swapping_the_card_key_is_refused_on_every_login_family_and_a_heartbeat(self) -> None:
        keys = json.loads(ENV["RESPONSE_KEYS"])
        typed, machine = ENV["RELAY_TYPED_KEY"], ENV["RELAY_MACHINE"]
        relayed = client(base_url=ENV["RELAY_URL"], response_keys=keys)
        results = [
            relayed.connect_login(typed, machine),
            relayed.legacy.card_login(typed, machine),
            relayed.v3_card_login(typed, machine),
            relayed.card_login(typed, machine),
        ]
        # A genuine card's session on this device, its heartbeat relayed with the relay's own card session.
        direct = client(response_keys=keys)
        self.assertTrue(direct.card_login(ENV["CARD_RELAY_GENUINE"], machine).success)
        relayed.restore_session(direct.session)
        results.append(relayed.card_heartbeat())
        self.assertEqual([(r.success, r.code) for r in results], [(False, ClientErrorCode.UNTRUSTED_RESPONSE)] * 5, results)
        # The logins' signatures cover the request the service received; the heartbeat's token is outside it, its card is not.
        self.assertEqual(
            [r.message for r in results],
            ["Untrusted answer: the answer signature does not verify"] * 4 + ["Untrusted answer: it is for another card than the one sent"],
        )
        self.assertEqual(relayed.session, direct.session, "an untrusted heartbeat neither renews nor ends the session")



@unittest.skipUnless(LIVE, "BASE_URL is not set: no service to test against")
class TrialTest(unittest.TestCase):
    def test_a_device_gets_one_trial_card_bound_to_it_and_logs_in_with_it(self) -> None:
        machine = f"py-trial-{secrets.token_hex(4)}"
        c = client()
        first = c.card_trial(machine)
        self.assertTrue(first.success, first.message)
        self.assertEqual((first.trial, first.features, first.data["machine_code"]), (True, ["trial"], machine))
        self.assertEqual(c.card_trial(machine).data, first.data)
        login = c.card_login(first.data["code"], machine)
        self.assertTrue(login.success, login.message)
        self.assertIs(login.trial, True)
        self.assertIs(c.card_heartbeat().trial, True)


if __name__ == "__main__":
    unittest.main()
