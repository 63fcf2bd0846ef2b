"""HTTP with urllib: one call, its retries, and nothing that could turn a failure into a success.

Business answers, whatever they say, come back as they are and are never retried; only a missing
answer (or a gateway's non-JSON 502/503/504) of an idempotent call is tried again, after an
exponential backoff, and every attempt is built (signed) afresh. Redirects are never followed:
the service never sends one, so a redirect means the address or a proxy is wrong.
"""

from __future__ import annotations

import errno
import random
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from http.client import HTTPException
from typing import Any, Callable, Dict, Optional, Union

from .errors import ClientErrorCode
from .result import RawAnswer, Result
from .trust import request_digest_input

USER_AGENT = "cardkey-client-python/0.1.0"

_GATEWAY_STATUSES = frozenset({502, 503, 504})


@dataclass(frozen=True)
class Request:
    """One attempt: built per attempt so that each is freshly signed; ``nonce`` is the one it carries."""

    headers: Dict[str, str]
    body: Optional[bytes] = None
    nonce: str = ""


@dataclass(frozen=True)
class Call:
    method: str
    path: str
    build: Callable[[], Request]
    #: Sending it twice has the effect of sending it once: only then is a network failure retried.
    idempotent: bool


@dataclass(frozen=True)
class Sent:
    """An answer, with the nonce of the attempt that got it and what its REQUEST_DIGEST must hash
    (``request_digest_input`` of the bytes that attempt sent): the signed answer covers both."""

    answer: RawAnswer
    nonce: str
    sent: bytes = b""


@dataclass(frozen=True)
class TransportOptions:
    base_url: str
    #: Seconds per socket operation (connect, each read) of one attempt.
    timeout: float = 10.0
    #: Further attempts after a network failure of an idempotent call.
    retries: int = 2
    #: First backoff delay in seconds; doubled each attempt, with jitter, capped at 8 times this.
    retry_delay: float = 0.25


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, req, fp, code, msg, headers, newurl):  # type: ignore[no-untyped-def]
        return None  # urllib then raises HTTPError with the 3xx answer, which is read like any other


# No ProxyHandler default is removed: a deployment behind an HTTP proxy keeps working through it.
_OPENER = urllib.request.build_opener(_NoRedirect())


def send(options: TransportOptions, call: Call) -> Union[Sent, Result[Any]]:
    """Sends the call; the answer as received, or a NETWORK_ERROR result after the last attempt."""
    url = options.base_url.rstrip("/") + call.path
    attempts = options.retries + 1 if call.idempotent else 1
    last_error = "no attempt made"
    for attempt in range(attempts):
        if attempt > 0:
            time.sleep(_backoff(options.retry_delay, attempt))
        request = call.build()
        try:
            answer = _exchange(url, call.method, request, options.timeout)
        except (OSError, HTTPException, ValueError) as error:
            last_error = _describe(error)
            continue
        if not _is_gateway_failure(answer):
            return Sent(answer=answer, nonce=request.nonce, sent=request_digest_input(call.method, call.path, request.body))
        last_error = f"HTTP {answer.status} from a gateway"
    return Result(success=False, code=ClientErrorCode.NETWORK_ERROR, message=f"The service could not be reached: {last_error}")


def _exchange(url: str, method: str, request: Request, timeout: float) -> RawAnswer:
    headers = {"User-Agent": USER_AGENT, **request.headers}
    prepared = urllib.request.Request(url, data=request.body, headers=headers, method=method)
    try:
        with _OPENER.open(prepared, timeout=timeout) as response:
            return RawAnswer(status=response.status, headers=_lower(response.headers), body=response.read())
    except urllib.error.HTTPError as answered:  # a 3xx, 4xx or 5xx is still an answer
        try:
            return RawAnswer(status=answered.code, headers=_lower(answered.headers), body=answered.read())
        finally:
            answered.close()


def _lower(headers) -> Dict[str, str]:  # type: ignore[no-untyped-def]
    """Headers keyed by lower-case name; a repeated header keeps its first value."""
    out: Dict[str, str] = {}
    for name, value in headers.items():
        out.setdefault(name.lower(), value)
    return out


def _is_gateway_failure(answer: RawAnswer) -> bool:
    return answer.status in _GATEWAY_STATUSES and "json" not in (answer.header("content-type") or "")


def _backoff(base: float, attempt: int) -> float:
    exponential = min(base * float(2 ** (attempt - 1)), base * 8)
    return exponential / 2 + random.random() * (exponential / 2)


def _describe(error: BaseException) -> str:
    """A short reason with the errno name where there is one ("Connection refused (ECONNREFUSED)")."""
    if isinstance(error, urllib.error.URLError) and isinstance(error.reason, BaseException):
        error = error.reason
    if isinstance(error, (socket.timeout, TimeoutError)):
        return "timed out"
    if isinstance(error, urllib.error.URLError):
        return str(error.reason)
    if isinstance(error, OSError) and error.errno is not None and error.errno in errno.errorcode:
        return f"{error.strerror or error} ({errno.errorcode[error.errno]})"
    return str(error) or type(error).__name__
