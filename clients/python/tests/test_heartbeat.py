"""The heartbeat loop: a background thread that stops and reports when the session ends."""

from __future__ import annotations

import threading
import time
import unittest

from cardkey_client import ClientErrorCode, ErrorCode
from support import Drop, standard_failure, standard_ok
from test_client import CARD_SESSION, HEARTBEAT_OK, ServiceTestCase, client_for


def wait_until(done, seconds: float = 5.0) -> bool:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


class HeartbeatLoopTest(ServiceTestCase):
    def test_beats_until_the_session_ends_then_clears_it_stops_and_reports_once(self) -> None:
        service = self.service(standard_ok(CARD_SESSION), HEARTBEAT_OK, HEARTBEAT_OK, standard_failure(ErrorCode.SESSION_INVALID, 401))
        client = client_for(service)
        client.card_login("CK", "PC-1")
        beats, ended, errors = [], [], []
        loop = client.start_heartbeat(interval=0.01, on_beat=beats.append, on_session_ended=ended.append, on_error=errors.append)
        self.assertTrue(loop.join(5), "the loop stopped")
        time.sleep(0.05)
        self.assertFalse(loop.running)
        self.assertEqual(len(beats), 2)
        self.assertEqual([(r.code, r.http_status) for r in ended], [(ErrorCode.SESSION_INVALID, 401)])
        self.assertEqual(errors, [])
        self.assertIsNone(client.session)
        self.assertEqual(len(service.seen), 4, "no heartbeat after the session ended")

    def test_ends_when_a_direct_heartbeat_meets_the_end_of_the_session(self) -> None:
        client = client_for(self.service(standard_ok(CARD_SESSION), standard_failure(ErrorCode.SESSION_INVALID, 401)))
        client.card_login("CK", "PC-1")
        ended = []
        loop = client.start_heartbeat(interval=60, on_session_ended=lambda r: ended.append(r.code))
        self.assertEqual(client.card_heartbeat().code, ErrorCode.SESSION_INVALID)
        self.assertFalse(loop.running)
        self.assertEqual(ended, [ErrorCode.SESSION_INVALID])
        self.assertTrue(loop.join(1))

    def test_goes_on_through_other_failures_reporting_them_to_on_error(self) -> None:
        service = self.service(standard_ok(CARD_SESSION), standard_failure(ErrorCode.SYSTEM_ERROR, 500), Drop(), HEARTBEAT_OK)
        client = client_for(service, retries=0)
        client.card_login("CK", "PC-1")
        errors, beat = [], threading.Event()
        loop = client.start_heartbeat(interval=0.01, on_error=lambda r: errors.append(r.code), on_beat=lambda r: beat.set())
        self.assertTrue(beat.wait(5))
        loop.stop()
        self.assertEqual(errors, [ErrorCode.SYSTEM_ERROR, ClientErrorCode.NETWORK_ERROR])
        self.assertEqual(client.session.token, "sess-1")

    def test_a_raising_callback_is_logged_and_cannot_end_the_loop(self) -> None:
        client = client_for(self.service(standard_ok(CARD_SESSION), HEARTBEAT_OK))
        client.card_login("CK", "PC-1")
        calls = []

        def faulty(result) -> None:
            calls.append(result)
            raise RuntimeError("a bug in the program")

        with self.assertLogs("cardkey_client", "ERROR"):
            loop = client.start_heartbeat(interval=0.01, on_beat=faulty)
            self.assertTrue(wait_until(lambda: len(calls) >= 2))
        self.assertTrue(loop.running)
        loop.stop()

    def test_stops_when_the_client_clears_its_session_and_needs_a_session_to_start(self) -> None:
        service = self.service(standard_ok(CARD_SESSION), HEARTBEAT_OK)
        client = client_for(service)
        with self.assertRaisesRegex(RuntimeError, "log in"):
            client.start_heartbeat()
        client.card_login("CK", "PC-1")
        with self.assertRaisesRegex(ValueError, "positive"):
            client.start_heartbeat(interval=0)
        loop = client.start_heartbeat(interval=0.05)
        client.clear_session()
        self.assertFalse(loop.running)
        time.sleep(0.1)
        self.assertEqual(len(service.seen), 1)

    def test_one_loop_per_client(self) -> None:
        client = client_for(self.service(standard_ok(CARD_SESSION), HEARTBEAT_OK))
        client.card_login("CK", "PC-1")
        first = client.start_heartbeat(interval=60)
        second = client.start_heartbeat(interval=60)
        self.assertFalse(first.running)
        self.assertTrue(second.running)
        self.assertFalse(second.join(0.01), "join times out while the loop runs")
        second.stop()

    def test_defaults_to_the_interval_the_login_answer_gave(self) -> None:
        service = self.service(standard_ok({**CARD_SESSION, "heartbeat_interval_seconds": 1}), HEARTBEAT_OK)
        client = client_for(service)
        client.card_login("CK", "PC-1")
        loop = client.start_heartbeat()
        time.sleep(0.5)
        self.assertEqual(len(service.seen), 1, "no beat before the interval")
        self.assertTrue(wait_until(lambda: len(service.seen) == 2, 2))
        loop.stop()

    def test_heartbeats_a_user_session_too(self) -> None:
        user = {"profile": {"user_id": 3}, "session_token": "u", "session_expires_at": "x", "machine_id": "PC-1"}
        service = self.service(standard_ok(user), standard_ok({"user_id": 3, "session_expires_at": "y", "server_time": 1}), standard_failure(ErrorCode.SESSION_INVALID, 401))
        client = client_for(service)
        client.user_login("alice", "secret-1", "PC-1")
        ended = []
        loop = client.start_heartbeat(interval=0.01, on_session_ended=ended.append)
        self.assertTrue(loop.join(5))
        self.assertEqual([r.path for r in service.seen[1:]], ["/api/v1/users/heartbeat"] * 2)
        self.assertEqual([r.code for r in ended], [ErrorCode.SESSION_INVALID])


if __name__ == "__main__":
    unittest.main()
