"""The service's error catalog (docs/errors.md) and the codes the client produces itself.

Failures carry these codes in every family (the client removes Connect's negative sign), so a
caller compares ``result.code`` with ``ErrorCode.CARD_EXPIRED`` instead of parsing messages.
"""

from __future__ import annotations

from typing import FrozenSet


class ErrorCode:
    """Catalog codes sent by the service; never 0 or 1, so no failure passes a success rule."""

    BAD_REQUEST = 10001
    METHOD_NOT_ALLOWED = 10002
    CIPHERTEXT_NOT_ALLOWED = 10003
    APP_REQUIRED = 10004
    INTERNAL_KEY_NOT_ACCEPTED = 10005
    NOT_FOUND = 10006
    UNSUPPORTED_MEDIA_TYPE = 10007
    PAYLOAD_TOO_LARGE = 10008
    SIGNATURE_INVALID = 10101
    TIMESTAMP_OUT_OF_WINDOW = 10102
    NONCE_REPLAYED = 10103
    PROGRAM_NOT_FOUND = 10201
    PROGRAM_DISABLED = 10202
    AUTHOR_DISABLED = 10203
    VERIFICATION_SWITCH_OFF = 10204
    PACKAGE_NOT_ENABLED = 10205
    INTERFACE_NOT_AUTHORIZED = 10206
    INTERFACE_DISABLED = 10207
    CONNECT_NOT_ENABLED = 10208
    QUOTA_EXCEEDED = 10301
    RATE_LIMITED = 10302
    UNAUTHENTICATED = 11001
    FORBIDDEN = 11002
    CONFLICT = 11003
    CARD_INVALID = 20001
    CARD_EXPIRED = 20002
    CARD_BANNED = 20003
    DEVICE_LIMIT_REACHED = 20004
    UNBIND_REFUSED = 20005
    CHECKOUT_DISABLED = 20009
    DEVICE_NOT_BOUND = 20010
    USERNAME_TAKEN = 30001
    BAD_CREDENTIALS = 30002
    USER_BANNED = 30003
    MACHINE_MISMATCH = 30004
    SESSION_INVALID = 30101
    SESSION_TYPE_MISMATCH = 30102
    SITE_NOT_AUTHORIZED = 40001
    BLACKLISTED = 40002
    IP_NOT_BOUND = 40003
    SYSTEM_ERROR = 50000


class ClientErrorCode:
    """Codes the client reports when it has no usable answer; the service never sends them."""

    #: No answer: connection refused or reset, DNS failure, timeout (after the retries of idempotent calls).
    NETWORK_ERROR = 90001
    #: An answer that is not the family's JSON: HTML, a redirect, an empty body. The address is wrong.
    UNEXPECTED_RESPONSE = 90002
    #: A heartbeat was asked for while the client holds no session of that type; nothing was sent.
    NO_SESSION = 90003
    #: With ``response_keys`` pinned: an answer without a valid signature of a pinned key over this
    #: request (a proxy faking the service, a replayed answer, a tampered body). Never a success.
    UNTRUSTED_RESPONSE = 90004


#: Answers after which the session is gone for good: clear it, leave protected functions, log in again.
SESSION_ENDED_CODES: FrozenSet[int] = frozenset({ErrorCode.SESSION_INVALID, ErrorCode.SESSION_TYPE_MISMATCH})
