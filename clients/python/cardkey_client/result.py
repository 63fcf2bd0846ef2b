"""Results and the success rule of each protocol family (docs/protocol.md §1, docs/errors.md).

Every client method answers a :class:`Result`; none raises for anything the service or the
network does. A failure always carries a positive catalog code (or a client code) and never
passes a success rule, so ``if result.success`` is the one test a caller needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Generic, List, Mapping, Optional, Sequence, TypeVar

from ._values import Number, as_integer, as_number, as_object, as_str, parse_object
from .errors import ClientErrorCode, ErrorCode

T = TypeVar("T")

#: The protocol families; each has its own success rule.
FAMILIES = ("connect", "standard", "legacy")

#: The success code a family sends, for an answer that is a success by another marker.
_SUCCESS_CODES = {"connect": 1, "standard": 0, "legacy": 1}

#: The success codes a standard-family route can fix for itself (0, or 1 for an unbind).
STANDARD_SUCCESS_CODES = (0, 1)

_CONNECT_TOP_FIELDS = ("status", "code", "reason", "data", "request_id")
_CONNECT_DATA_FIELDS = ("token", "expires_at", "device_limit", "server_time", "machine_code", "announcement")


@dataclass
class Result(Generic[T]):
    """One answer of the service, whatever the family, judged by that family's success rule."""

    #: The family's success rule: Connect ``status is True``; standard ``success`` (or, where it is
    #: absent, ``code`` 0 or 1) — on routes with their own success code (top-up, card info 0, the
    #: SDK unbind 1) exactly that code —; legacy ``code == 1``.
    success: bool
    #: On failure the catalog code, always positive (compare with ``ErrorCode``), or a
    #: ``ClientErrorCode`` (never 0 or 1); on success the family's success code as sent (Connect 1,
    #: standard 0 — 1 on the SDK unbind —, legacy 1).
    code: int
    #: Connect ``reason``, standard and legacy ``msg``: may be shown to the end user.
    message: str
    #: Body ``request_id``, else the X-Request-Id header: keep it for the administrator.
    request_id: Optional[str] = None
    #: Present on platform faults (SYSTEM_ERROR): keep it for the administrator.
    error_id: Optional[str] = None
    #: The answer's ``data`` on success, every field kept (fields may be added at any time).
    data: Optional[T] = None
    #: HTTP status; None when no answer came back.
    http_status: Optional[int] = None
    #: Seconds from a Retry-After header (RATE_LIMITED).
    retry_after_seconds: Optional[Number] = None
    #: Why the session ended, on a heartbeat's SESSION_INVALID (decisions §18): ``card_banned``,
    #: ``forced_offline``, ``expired``... so the program can tell the user why; ``unknown`` for a
    #: token the service does not know; None when the answer does not say.
    ended_by: Optional[str] = None
    #: When it ended (``YYYY-MM-DD HH:MM:SS`` in the service's time zone); None for ``unknown``.
    ended_at: Optional[str] = None
    #: Why an unbind was refused, on UNBIND_REFUSED (``data.reason``, decisions §21): ``cooldown``,
    #: ``limit``, ``disabled``, ``not_bound``; None on any other answer.
    unbind_reason: Optional[str] = None
    #: ``data.retry_at`` with it: when an unbind becomes possible (``YYYY-MM-DD HH:MM:SS``, the
    #: service's time zone); None also when waiting will not help.
    retry_at: Optional[str] = None
    #: The whole answer as received, unknown fields included.
    body: Optional[Dict[str, Any]] = field(default=None, repr=False)
    #: ``data.features`` of a successful card answer (login, heartbeat, info: the card type's
    #: features, decisions §19), its strings only; None when the answer carries none.
    features: Optional[List[str]] = None
    #: ``data.trial`` of a successful card answer: True for a device's trial card (decisions §21);
    #: None when the answer says nothing.
    trial: Optional[bool] = None


@dataclass(frozen=True)
class RawAnswer:
    """An HTTP answer as the transport read it: headers are keyed by lower-case name."""

    status: int
    headers: Mapping[str, str]
    #: The body bytes as received (a signed answer is verified over them, never a re-encoding).
    body: bytes = b""

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    def header(self, name: str) -> Optional[str]:
        return self.headers.get(name.lower())


def judge(
    family: str,
    answer: RawAnswer,
    connect_field_names: Optional[Mapping[str, str]] = None,
    success_code: Optional[int] = None,
) -> Result[Any]:
    """Judges an answer by its family's rule; anything that is not a JSON object is UNEXPECTED_RESPONSE.

    ``connect_field_names`` maps default Connect names to a program's customized ones
    (``{"status": "ok"}``); ``data`` then comes back under the default names, ``body`` as received.
    ``success_code`` is a standard-family route's own success code (see :func:`is_success`). A
    failure never carries 0 or 1: an answer that fails its rule with such a code is UNEXPECTED_RESPONSE.
    """
    if family not in FAMILIES:
        raise ValueError(f"family must be one of {', '.join(FAMILIES)}")
    _check_success_code(family, success_code)
    received = parse_object(answer.text)
    body = _rename_connect_body(received, connect_field_names or {}) if family == "connect" else received
    common: Dict[str, Any] = {
        "http_status": answer.status,
        "request_id": as_str(body.get("request_id")) if body else None,
        "retry_after_seconds": _retry_after(answer),
    }
    if common["request_id"] is None:
        common["request_id"] = answer.header("x-request-id")
    if body is None or 300 <= answer.status < 400:
        return Result(success=False, code=ClientErrorCode.UNEXPECTED_RESPONSE, message=_unexpected_message(answer), **common)
    raw_code = as_integer(body.get("code"))
    message = as_str(body.get("reason" if family == "connect" else "msg")) or ""
    if is_success(family, body, success_code):
        code = raw_code if raw_code is not None else _SUCCESS_CODES[family]
        data = as_object(body.get("data"))
        listed = data.get("features") if data is not None else None
        features = [f for f in listed if isinstance(f, str)] if isinstance(listed, list) else None
        trial = data.get("trial") if data is not None else None
        trial = trial if isinstance(trial, bool) else None
        return Result(success=True, code=code, message=message, data=data, body=received, features=features, trial=trial, **common)
    if raw_code is not None and abs(raw_code) > 1:
        code, message = abs(raw_code), message or _unexpected_message(answer)
    elif raw_code is not None:
        code = ClientErrorCode.UNEXPECTED_RESPONSE
        message = f"Unexpected answer (HTTP {answer.status}): code {raw_code} is neither this route's success nor a failure code"
    else:
        code, message = ClientErrorCode.UNEXPECTED_RESPONSE, message or _unexpected_message(answer)
    data = as_object(body.get("data")) or {}
    unbind_reason = as_str(data.get("reason")) if code == ErrorCode.UNBIND_REFUSED else None
    return Result(
        success=False,
        code=code,
        message=message,
        error_id=as_str(body.get("error_id")),
        ended_by=as_str(data.get("ended_by")),
        ended_at=as_str(data.get("ended_at")),
        unbind_reason=unbind_reason,
        retry_at=as_str(data.get("retry_at")) if unbind_reason is not None else None,
        body=received,
        **common,
    )


def is_success(family: str, body: Mapping[str, Any], success_code: Optional[int] = None) -> bool:
    """The success rule alone: Connect ``status is True`` (never ``code``); standard ``success`` when it
    is a boolean, else ``code`` 0 or 1; legacy ``code == 1``.

    ``success_code`` is a standard-family route's own success code, for routes whose contract fixes
    it (decisions §13–14: top-up and card info answer 0, the SDK unbind answers 1). Their answers
    are a success only when ``code`` is exactly that code and ``success``, when a boolean, is true:
    an unbind answering ``code: 0`` is not a success.
    """
    _check_success_code(family, success_code)
    if family == "connect":
        return body.get("status") is True
    if family == "standard":
        success = body.get("success")
        if success_code is not None:
            return as_number(body.get("code")) == success_code and success is not False
        if isinstance(success, bool):
            return success
        return as_number(body.get("code")) in (0, 1)
    if family == "legacy":
        return as_number(body.get("code")) == 1
    raise ValueError(f"family must be one of {', '.join(FAMILIES)}")


def _check_success_code(family: str, success_code: Optional[int]) -> None:
    if success_code is None:
        return
    if family != "standard" or isinstance(success_code, bool) or success_code not in STANDARD_SUCCESS_CODES:
        raise ValueError("success_code is a standard-family route rule: 0 or 1")


def _rename_connect_body(body: Optional[Dict[str, Any]], names: Mapping[str, str]) -> Optional[Dict[str, Any]]:
    """Maps a customized Connect answer back to the default names (unknown fields stay as they are)."""
    if body is None or not names:
        return body
    top = _rename_back(body, names, _CONNECT_TOP_FIELDS)
    data = as_object(top.get("data"))
    if data is not None:
        top["data"] = _rename_back(data, names, _CONNECT_DATA_FIELDS)
    return top


def _rename_back(source: Mapping[str, Any], names: Mapping[str, str], fields: Sequence[str]) -> Dict[str, Any]:
    out = dict(source)
    for default in fields:
        custom = names.get(default)
        if custom is None or custom == default or custom not in source:
            continue
        out[default] = source[custom]
        out.pop(custom, None)
    return out


def _retry_after(answer: RawAnswer) -> Optional[Number]:
    value = answer.header("retry-after")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return as_number(int(seconds) if seconds.is_integer() else seconds)


def _unexpected_message(answer: RawAnswer) -> str:
    if 300 <= answer.status < 400:
        return f"Unexpected redirect (HTTP {answer.status}): check the service address"
    content_type = answer.header("content-type") or "no content type"
    return f"Unexpected answer (HTTP {answer.status}, {content_type}): check the service address"
