"""The official Python client of the card-key login service (the TypeScript client's twin, sdk/).

It signs requests as the service verifies them, applies each family's success rule, holds the
session of an SDK card or user login and keeps it alive with a heartbeat thread. No method raises
for what the service or the network does: every one answers a :class:`~cardkey_client.Result`.
Only programming errors raise (missing options, ``legacy_secret`` absent for ``client.legacy``,
``start_heartbeat`` before a login).
"""

from __future__ import annotations

import dataclasses
import json
import re
import threading
import urllib.parse
from typing import Any, Dict, Mapping, Optional, Union

from .errors import SESSION_ENDED_CODES, ClientErrorCode
from .heartbeat import Callback, HeartbeatLoop
from .legacy import LegacyRoutes
from .legacy_transport import LegacyTransport
from .licence import LicenceCheck, verify_licence
from .result import Result, judge
from .signing import NONCE_HEADER, new_nonce, signature_headers
from .transport import Call, Request, Sent, TransportOptions, send
from .trust import Named, answer_distrust, bound, card_named, public_key_bytes
from .types import (
    SESSION_TYPES,
    CardInfoData,
    CardTopupData,
    CardTrialData,
    CardUnbindData,
    CheckoutData,
    ConnectLoginData,
    HeartbeatData,
    SdkCardLoginData,
    Session,
    StandardCardData,
    UserLoginData,
    UserRegisterData,
    VersionData,
)

DEFAULT_HEARTBEAT_SECONDS = 60.0
_FORM = "application/x-www-form-urlencoded"
_JSON = "application/json"
_HTTP_URL = re.compile(r"https?://", re.IGNORECASE)


class Client:
    """One program's client. One client holds at most one session: a new SDK login replaces it.

    :param base_url: the service's address, e.g. ``https://licence.example.com`` (no route path).
    :param program_id: the public program ID (8 digits), never the internal project key.
    :param api_secret: the project's api_secret; signs V3 and SDK requests.
    :param legacy_secret: the project's legacy_secret; needed only by ``client.legacy``.
    :param connect_field_names: the program's Connect field names, when its author customized them.
    :param timeout: seconds per socket operation of one attempt; default 10.
    :param retries: further attempts after a network failure of an idempotent call; default 2.
    :param retry_delay: first backoff delay in seconds, doubled each attempt; default 0.25.
    :param response_keys: the program's pinned response-signing keys (kid → base64url public key).
        When set, every answer must carry a valid signature of one of them over this request, else
        it is UNTRUSTED_RESPONSE, never a success.
    :param response_max_skew_seconds: allowed distance between an answer's signing time and this clock.
    :param legacy_transport: the project's transport encryption when it is not ``none``
        (``LegacyTransport(mode, transport_key)``): ``client.legacy`` then goes through the aggregate
        entry ``/api/app``, encrypted both ways.
    """

    def __init__(
        self,
        base_url: str,
        program_id: str,
        api_secret: str,
        legacy_secret: Optional[str] = None,
        connect_field_names: Optional[Mapping[str, str]] = None,
        timeout: float = 10.0,
        retries: int = 2,
        retry_delay: float = 0.25,
        response_keys: Optional[Mapping[str, str]] = None,
        response_max_skew_seconds: float = 300,
        legacy_transport: Optional[LegacyTransport] = None,
    ) -> None:
        _require_text(base_url, "base_url")
        if not _HTTP_URL.match(base_url):
            raise ValueError("base_url must be an http or https address")
        _require_text(program_id, "program_id")
        _require_text(api_secret, "api_secret")
        for kid, key in (response_keys or {}).items():
            try:
                public_key_bytes(key)
            except ValueError:  # a pinned key that cannot be right is a programming error: say so now
                raise ValueError(f"response_keys[{kid!r}] is not an Ed25519 public key (base64url of 32 bytes)") from None
        self.program_id = program_id
        self._api_secret = api_secret
        if legacy_transport is not None and not isinstance(legacy_transport, LegacyTransport):
            raise ValueError("legacy_transport must be a LegacyTransport(mode, key)")
        self._connect_field_names = dict(connect_field_names or {})
        # An empty map pins nothing, so it trusts nothing (as in the TypeScript client): fail closed.
        self._response_keys = dict(response_keys) if response_keys is not None else None
        self._response_max_skew_seconds = response_max_skew_seconds
        self._transport = TransportOptions(base_url=base_url, timeout=timeout, retries=retries, retry_delay=retry_delay)
        self._lock = threading.Lock()
        self._current: Optional[Session] = None
        self._loop: Optional[HeartbeatLoop] = None
        #: The legacy V1 card routes (MD5-signed); need ``legacy_secret``.
        self.legacy = LegacyRoutes(self, program_id, legacy_secret, legacy_transport)

    # ----- the session ---------------------------------------------------------------------------

    @property
    def session(self) -> Optional[Session]:
        """A copy of the session held after an SDK card or user login, if any."""
        current = self._current
        return dataclasses.replace(current) if current else None

    def restore_session(self, session: Session) -> None:
        """Takes up a session kept from an earlier run (e.g. ``client.session`` saved at exit).

        A program that restarts can go on heartbeating without a new login; the next heartbeat
        tells whether the service still accepts it, and if not the session is cleared as usual.
        """
        if session.type not in SESSION_TYPES:
            raise ValueError("session.type must be 'card' or 'app_user'")
        _require_text(session.token, "session.token")
        _require_text(session.machine_id, "session.machine_id")
        with self._lock:
            self._current = dataclasses.replace(session)

    def clear_session(self) -> None:
        """Forgets the session and stops the heartbeat loop (the session itself simply expires)."""
        with self._lock:
            self._current = None
            loop, self._loop = self._loop, None
        if loop:
            loop.stop()

    # ----- SDK v1 ----------------------------------------------------------------------------------

    def card_login(self, card_key: str, machine_id: str) -> Result[SdkCardLoginData]:
        """SDK card login (``/api/v1/cards/login``): on success the client holds a card session."""
        result = bound(
            _top_level_into_data(self._signed_json("/api/v1/cards/login", {"card_key": card_key, "machine_id": machine_id}, idempotent=True)),
            card_named(machine_id, card_key),
        )
        if result.success and result.data is not None:
            card_id = result.data.get("id")
            self._hold("card", machine_id, result.data, card_id=card_id if _is_int(card_id) else None)
        return result

    def card_heartbeat(self) -> Result[HeartbeatData]:
        """Renews the held card session; SESSION_INVALID or SESSION_TYPE_MISMATCH clears it."""
        return self._heartbeat("card")

    def card_trial(self, machine_id: str) -> Result[CardTrialData]:
        """This device's one trial card (``/api/v1/cards/trial``, decisions §21), already bound to it.

        Log in with ``data["code"]``. A repeat answers the same card while it is valid, then
        TRIAL_USED; safe to retry.
        """
        result = self._signed_json("/api/v1/cards/trial", {"machine_id": machine_id}, idempotent=True)
        return bound(result, (Named("machine_code", machine_id, "device", True),))

    def card_checkout(self, card_key: str, machine_id: str, ttl_seconds: Optional[int] = None) -> Result[CheckoutData]:
        """An offline licence for this bound device (``/api/v1/cards/checkout``): keep it for an outage."""
        payload: Dict[str, Any] = {"card_key": card_key, "machine_id": machine_id}
        if ttl_seconds is not None:
            payload["ttl_seconds"] = ttl_seconds
        return self._signed_json("/api/v1/cards/checkout", payload, idempotent=True)

    def card_topup(self, card_key: str, topup_key: str) -> Result[CardTopupData]:
        """Renews a card with a second, unused card of the same program and kind (``/api/v1/cards/topup``).

        ``data`` is the renewed card (decisions §13). Refused with nothing changed as TOPUP_REFUSED
        (the reason in ``message``). Never retried: a repeat would find the top-up card consumed.
        """
        return self._signed_json(
            "/api/v1/cards/topup", {"card_key": card_key, "topup_key": topup_key}, idempotent=False, success_code=0
        )

    def card_info(self, card_key: str) -> Result[CardInfoData]:
        """The card as its holder sees it (``/api/v1/cards/info``): state, uses, seats, devices, unbind rules."""
        return self._signed_json("/api/v1/cards/info", {"card_key": card_key}, idempotent=True, success_code=0)

    def card_unbind(self, card_key: str, machine_id: str) -> Result[CardUnbindData]:
        """The holder's unbind of one device (``/api/v1/cards/unbind``, decisions §14).

        Its success answers ``code: 1``, the standard family's unbind code, and only that is a
        success here. It may take ``unbind.deduct_seconds`` off the card and ends that device's
        sessions (a session this client holds on it then ends at its next heartbeat). Never
        retried: each unbind may deduct time.
        """
        result = self._signed_json(
            "/api/v1/cards/unbind", {"card_key": card_key, "machine_id": machine_id}, idempotent=False, success_code=1
        )
        return bound(result, card_named(machine_id, card_key))

    def check_licence(self, licence: str, card_key: str, machine_id: str, now: Optional[float] = None) -> LicenceCheck:
        """Checks a kept offline licence for this program and device without a network.

        Needs ``response_keys``. Use it when a login answers NETWORK_ERROR, never when the service
        answered a refusal: a banned card must stop.
        """
        if self._response_keys is None:
            raise ValueError("check_licence needs response_keys")
        return verify_licence(licence, self._response_keys, self.program_id, machine_id, card_key=card_key, now=now)

    def user_register(self, username: str, password: str, machine_id: str) -> Result[UserRegisterData]:
        """SDK program-user registration; never retried (a repeat would find the name taken)."""
        return self._signed_json("/api/v1/users/register", _user_fields(username, password, machine_id), idempotent=False)

    def user_login(self, username: str, password: str, machine_id: str) -> Result[UserLoginData]:
        """SDK program-user login: on success the client holds a user session on the bound machine."""
        result = self._signed_json("/api/v1/users/login", _user_fields(username, password, machine_id), idempotent=True)
        if result.success and result.data is not None:
            machine = result.data.get("machine_id")
            profile = result.data.get("profile")
            user_id = profile.get("user_id") if isinstance(profile, dict) else None
            self._hold("app_user", machine if isinstance(machine, str) and machine else machine_id, result.data, user_id=user_id if _is_int(user_id) else None)
        return result

    def user_heartbeat(self) -> Result[HeartbeatData]:
        """Renews the held user session; SESSION_INVALID or SESSION_TYPE_MISMATCH clears it."""
        return self._heartbeat("app_user")

    def check_version(self, version: str) -> Result[VersionData]:
        """SDK version check (``/api/v1/apps/version``); ``download_url`` may be relative to base_url."""
        return self._signed_json("/api/v1/apps/version", {"version": version}, idempotent=True)

    # ----- HTTP V3 and Connect ----------------------------------------------------------------------

    def v3_card_login(self, card_key: str, machine_id: str) -> Result[StandardCardData]:
        """HTTP V3 card login (signed form): a compatible token, no session."""
        path = "/api/legacy/v3/cards/login"
        body = urllib.parse.urlencode({"app": self.program_id, "kami": card_key, "imei": machine_id})
        result = self._call("standard", Call("POST", path, lambda: self._signed(path, _FORM, body), idempotent=True))
        return bound(_top_level_into_data(result), card_named(machine_id, card_key))

    def connect_login(self, card_key: str, serial: str, nonce: Union[str, bool, None] = None) -> Result[ConnectLoginData]:
        """Connect login (``/connect/{program_id}``): unsigned, replay-protected by a nonce.

        ``nonce``: None (default) sends a fresh random nonce per attempt; a string of yours is sent
        as is and never retried (the service answers a repeat within 60 s with 409); False sends none.
        """
        fixed = nonce if isinstance(nonce, str) else None

        def build() -> Request:
            fields = {"user_key": card_key, "serial": serial}
            if nonce is not False:
                fields["nonce"] = fixed if fixed is not None else new_nonce()
            return Request(headers=_headers(_FORM), body=urllib.parse.urlencode(fields).encode("utf-8"), nonce=fields.get("nonce", ""))

        path = "/connect/" + urllib.parse.quote(self.program_id, safe="")
        # Connect's success carries the device (``machine_code``, read back from a customized name) but not the card.
        return bound(self._call("connect", Call("POST", path, build, idempotent=fixed is None)), (Named("machine_code", serial, "device", True),))

    # ----- the heartbeat loop ------------------------------------------------------------------------

    def start_heartbeat(
        self,
        interval: Optional[float] = None,
        on_session_ended: Optional[Callback] = None,
        on_error: Optional[Callback] = None,
        on_beat: Optional[Callback] = None,
    ) -> HeartbeatLoop:
        """Heartbeats the held session every ``interval`` seconds on a background thread.

        The interval defaults to the program's ``heartbeat_interval_seconds`` from the login answer,
        else 60 s. When the session ends (SESSION_INVALID, SESSION_TYPE_MISMATCH) the session is
        cleared, the loop stops and ``on_session_ended`` is called once; any other failure goes to
        ``on_error`` and the loop keeps its rhythm. Callbacks run on the loop's thread (or, for
        ``on_session_ended``, on the thread of a direct heartbeat call that met the end first); one
        that raises is logged and the loop goes on. One loop per client: starting another stops the
        previous one; ``clear_session()`` stops it too.
        """
        with self._lock:
            current = self._current
            if current is None:
                raise RuntimeError("start_heartbeat needs a session: log in with card_login or user_login first")
            seconds = interval if interval is not None else float(current.heartbeat_interval_seconds or DEFAULT_HEARTBEAT_SECONDS)
            if not seconds > 0:
                raise ValueError("interval must be a positive number of seconds")
            previous, self._loop = self._loop, None
        if previous:
            previous.stop()
        loop = HeartbeatLoop(self._beat_held, seconds, on_session_ended, on_error, on_beat)
        with self._lock:
            self._loop = loop
        return loop

    def _beat_held(self) -> Optional[Result[HeartbeatData]]:
        current = self._current
        return self._heartbeat(current.type) if current else None

    def _heartbeat(self, kind: str) -> Result[HeartbeatData]:
        session = self._current
        if session is None or session.type != kind:
            who = "card" if kind == "card" else "user"
            return Result(success=False, code=ClientErrorCode.NO_SESSION, message=f"No {who} session: log in first")
        path = "/api/v1/cards/heartbeat" if kind == "card" else "/api/v1/users/heartbeat"
        body = json.dumps({"machine_id": session.machine_id}, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

        def build() -> Request:
            # A nonce binds the signed answer to this heartbeat: an old answer cannot be replayed.
            nonce = new_nonce()
            headers = {**_headers(_JSON), "Authorization": f"Bearer {session.token}", NONCE_HEADER: nonce}
            return Request(headers=headers, body=body, nonce=nonce)

        result = self._call("standard", Call("POST", path, build, idempotent=True))
        # The token travels in a header, outside the signed digest: the answer must name this session's card or user.
        owner = Named("card_id", session.card_id, "card", True) if kind == "card" else Named("user_id", session.user_id, "user", True)
        if owner.value is not None:
            result = bound(result, (owner,))
        ended_loop = None
        with self._lock:
            if self._current is session:
                expires = result.data.get("session_expires_at") if result.success and result.data else None
                if isinstance(expires, str):
                    session.expires_at = expires
                if not result.success and result.code in SESSION_ENDED_CODES:
                    self._current = None
                    ended_loop, self._loop = self._loop, None
        if ended_loop:
            ended_loop.end(result)  # also when a direct call, not the loop, met the end
        return result

    def _hold(self, kind: str, machine_id: str, data: Mapping[str, Any], card_id: Optional[int] = None, user_id: Optional[int] = None) -> None:
        interval = data.get("heartbeat_interval_seconds")
        session = Session(
            type=kind,
            token=str(data.get("session_token", "")),
            machine_id=machine_id,
            expires_at=str(data.get("session_expires_at", "")),
            heartbeat_interval_seconds=interval if _is_int(interval) else None,
            card_id=card_id,
            user_id=user_id,
        )
        with self._lock:
            self._current = session

    # ----- requests --------------------------------------------------------------------------------

    def _signed_json(
        self, path: str, payload: Mapping[str, Any], idempotent: bool, success_code: Optional[int] = None
    ) -> Result[Any]:
        """An SDK request: JSON with ``app`` in the body, HMAC-signed afresh for each attempt.

        ``success_code`` is the route's own success code where its contract fixes one (see ``judge``).
        """
        body = json.dumps({"app": self.program_id, **payload}, ensure_ascii=False, separators=(",", ":"))
        call = Call("POST", path, lambda: self._signed(path, _JSON, body), idempotent=idempotent)
        return self._call("standard", call, success_code)

    def _signed(self, path: str, content_type: str, body: str) -> Request:
        signature = signature_headers(self._api_secret, "POST", path, body)
        return Request(headers={**_headers(content_type), **signature}, body=body.encode("utf-8"), nonce=signature[NONCE_HEADER])

    def _call(self, family: str, call: Call, success_code: Optional[int] = None) -> Result[Any]:
        sent = send(self._transport, call)
        if not isinstance(sent, Sent):
            return sent
        if self._response_keys is not None:
            distrust = answer_distrust(
                sent.answer, call.method, call.path, sent.nonce, sent.sent, self._response_keys, self._response_max_skew_seconds
            )
            if distrust:
                return Result(
                    success=False,
                    code=ClientErrorCode.UNTRUSTED_RESPONSE,
                    message=f"Untrusted answer: {distrust}",
                    http_status=sent.answer.status,
                )
        return judge(family, sent.answer, self._connect_field_names, success_code)


def _top_level_into_data(result: Result[Any]) -> Result[Any]:
    """The standard family's card logins carry ``token`` and ``statecode`` at the top level: offer them in ``data`` too."""
    if not result.success or result.data is None or result.body is None:
        return result
    extra = {name: result.body[name] for name in ("token", "statecode") if name in result.body}
    return dataclasses.replace(result, data={**result.data, **extra})


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _headers(content_type: str) -> Dict[str, str]:
    return {"Content-Type": content_type, "Accept": _JSON}


def _user_fields(username: str, password: str, machine_id: str) -> Dict[str, str]:
    return {"username": username, "password": password, "machine_id": machine_id}


def _require_text(value: object, name: str) -> None:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{name} is required")
