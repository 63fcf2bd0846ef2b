"""The heartbeat loop: a background thread that keeps an SDK session alive until it ends.

Beats run one after another on one thread, so they never overlap. The loop stops for good when
the session ends (SESSION_INVALID, SESSION_TYPE_MISMATCH), when the client clears its session, or
when ``stop()`` is called; ``on_session_ended`` is called once, whoever saw the end first.
"""

from __future__ import annotations

import logging
import threading
from typing import Any, Callable, Optional

from .errors import SESSION_ENDED_CODES
from .result import Result

_log = logging.getLogger("cardkey_client")

#: A callback of the loop; it runs on the loop's thread.
Callback = Callable[[Result[Any]], None]


class HeartbeatLoop:
    """Beats every ``interval`` seconds on a daemon thread; the handle ``Client.start_heartbeat`` returns."""

    def __init__(
        self,
        beat: Callable[[], Optional[Result[Any]]],
        interval: float,
        on_session_ended: Optional[Callback] = None,
        on_error: Optional[Callback] = None,
        on_beat: Optional[Callback] = None,
    ) -> None:
        self._beat = beat
        self._interval = interval
        self._on_session_ended = on_session_ended
        self._on_error = on_error
        self._on_beat = on_beat
        self._stopped = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="cardkey-heartbeat", daemon=True)
        self._thread.start()

    @property
    def running(self) -> bool:
        return not self._stopped.is_set()

    def stop(self) -> None:
        """Stops the loop; a beat already on the wire finishes, but nothing is reported after it."""
        self._stopped.set()

    def join(self, timeout: Optional[float] = None) -> bool:
        """Waits until the loop has stopped (e.g. the session ended); True when it has.

        Lets a program block on its session: ``client.start_heartbeat(...).join()``.
        """
        if threading.current_thread() is not self._thread:
            self._stopped.wait(timeout)
            if not self._stopped.is_set():
                return False
            self._thread.join(timeout)
        return self._stopped.is_set()

    def end(self, result: Result[Any]) -> None:
        """The session is over: stop, then tell the owner once."""
        with self._lock:
            if self._stopped.is_set():
                return
            self._stopped.set()
        self._call(self._on_session_ended, result)

    def _run(self) -> None:
        while not self._stopped.wait(self._interval):
            result = self._beat()
            if self._stopped.is_set():
                return
            if result is None:  # the client no longer holds a session
                self.stop()
                return
            if not result.success and result.code in SESSION_ENDED_CODES:
                self.end(result)
                return
            self._call(self._on_beat if result.success else self._on_error, result)

    @staticmethod
    def _call(callback: Optional[Callback], result: Result[Any]) -> None:
        """Runs a callback; one that raises is logged and cannot end the loop."""
        if callback is None:
            return
        try:
            callback(result)
        except Exception:  # noqa: BLE001 - the loop must outlive a faulty callback
            _log.exception("a heartbeat callback raised")
