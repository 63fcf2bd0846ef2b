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
    DOWNLOAD_ADDRESS_INVALID = 10009
    HTTPS_REQUIRED = 10010
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
    ACCOUNT_DISABLED = 11004
    FILE_TOO_LARGE = 11005
    CARD_IMPORT_INVALID = 11006
    TWO_FACTOR_REQUIRED = 11007
    TWO_FACTOR_CODE_INVALID = 11008
    TWO_FACTOR_ENROLMENT_REQUIRED = 11009
    WEBHOOK_TARGET_REFUSED = 11010
    AGENT_LEVELS_EXCEEDED = 11011
    AGENT_SCOPE_EXCEEDED = 11012
    API_KEY_SCOPE_MISSING = 11015
    API_KEY_ADDRESS_REFUSED = 11016
    API_KEY_NOT_ACCEPTED = 11017
    PROJECT_NOT_FOUND = 11101
    AUTHOR_NOT_FOUND = 11102
    CARD_NOT_FOUND = 11103
    CARD_DEVICE_NOT_FOUND = 11104
    APP_USER_NOT_FOUND = 11105
    ANNOUNCEMENT_NOT_FOUND = 11106
    VERSION_NOT_FOUND = 11107
    FILE_NOT_FOUND = 11108
    SITE_NOT_FOUND = 11109
    BLACKLIST_ENTRY_NOT_FOUND = 11110
    VARIABLE_NOT_FOUND = 11111
    INTERFACE_NOT_FOUND = 11112
    SECRET_NOT_FOUND = 11113
    MATCHING_CARDS_NOT_FOUND = 11114
    CARD_TYPE_NOT_FOUND = 11115
    WEBHOOK_NOT_FOUND = 11120
    WEBHOOK_DELIVERY_NOT_FOUND = 11121
    MAIL_NOT_FOUND = 11125
    AGENT_NOT_FOUND = 11130
    ORDER_NOT_FOUND = 11131
    API_KEY_NOT_FOUND = 11135
    CHECKOUT_NOT_FOUND = 11140
    PAYMENT_PROVIDER_NOT_FOUND = 11141
    AUTHOR_USERNAME_TAKEN = 11201
    VERSION_EXISTS = 11202
    VARIABLE_NAME_TAKEN = 11203
    SITE_EXISTS = 11204
    BLACKLIST_ENTRY_EXISTS = 11205
    IDEMPOTENCY_KEY_REUSED = 11206
    CONNECT_NOT_SELF_SERVICE = 11207
    CARD_TYPE_NAME_TAKEN = 11208
    CARD_TYPE_IN_USE = 11209
    CARD_TYPE_DISABLED = 11210
    TWO_FACTOR_ALREADY_ENABLED = 11220
    TWO_FACTOR_NOT_ENABLED = 11221
    INSUFFICIENT_BALANCE = 11301
    ORDER_CONFLICT = 11302
    OUT_OF_STOCK = 11303
    PAYMENT_PROVIDER_NOT_ENABLED = 11304
    PUBLIC_URL_NOT_SET = 11305
    CARD_TYPE_NOT_FOR_SALE = 11306
    PAYMENT_GATEWAY_UNAVAILABLE = 11307
    CARD_INVALID = 20001
    CARD_EXPIRED = 20002
    CARD_BANNED = 20003
    DEVICE_LIMIT_REACHED = 20004
    UNBIND_REFUSED = 20005
    #: "The card has no uses left": a count card whose uses are spent (decisions §13).
    CARD_NO_USES_LEFT = 20006
    #: "Every seat of this card is in use": its concurrent_limit of live sessions is reached (§13).
    SEATS_FULL = 20007
    #: "This top-up is not possible": nothing changed; the reason is in the message (§13).
    TOPUP_REFUSED = 20008
    CHECKOUT_DISABLED = 20009
    DEVICE_NOT_BOUND = 20010
    #: "This device has already used its trial": its one trial card expired, was used up or banned (§21).
    TRIAL_USED = 20011
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
