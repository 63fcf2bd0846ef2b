"""The official Python client of the card-key login service (standard library only, Python 3.9+).

    from cardkey_client import Client, ErrorCode, machine_code

    client = Client(base_url="https://licence.example.com", program_id="48213907", api_secret="...")
    login = client.card_login(card_key="CK-7QH2-9XKD-M3PA", machine_id=machine_code("48213907"))
    if login.success:
        client.start_heartbeat(on_session_ended=lambda r: print("session ended:", r.message))

See clients/python/README.md, docs/protocol.md and docs/errors.md.
"""

from .client import Client, LegacyRoutes
from .errors import SESSION_ENDED_CODES, ClientErrorCode, ErrorCode
from .heartbeat import HeartbeatLoop
from .legacy_transport import LegacyTransport, open_text, rc4, seal_legacy_request, seal_text
from .licence import LicenceCheck, verify_licence
from .machine_code import machine_code, machine_code_from, raw_machine_id
from .result import FAMILIES, RawAnswer, Result, is_success, judge
from .signing import (
    NONCE_HEADER,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    hmac_signature,
    hmac_signing_input,
    md5_sign,
    md5_signed_fields,
    md5_signing_input,
    new_nonce,
    signature_headers,
)
from .trust import (
    RESPONSE_KEY_HEADER,
    RESPONSE_SIGNATURE_HEADER,
    RESPONSE_SIGNATURE_VERSION,
    RESPONSE_TIMESTAMP_HEADER,
    RESPONSE_VERSION_HEADER,
    answer_distrust,
    request_digest,
    request_digest_input,
    response_signing_input,
)
from .types import Session

__version__ = "0.1.0"

__all__ = [
    "LegacyTransport",
    "open_text",
    "rc4",
    "seal_legacy_request",
    "seal_text",
    "Client",
    "LegacyRoutes",
    "ErrorCode",
    "ClientErrorCode",
    "SESSION_ENDED_CODES",
    "HeartbeatLoop",
    "LicenceCheck",
    "verify_licence",
    "machine_code",
    "machine_code_from",
    "raw_machine_id",
    "FAMILIES",
    "RawAnswer",
    "Result",
    "is_success",
    "judge",
    "NONCE_HEADER",
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "hmac_signature",
    "hmac_signing_input",
    "md5_sign",
    "md5_signed_fields",
    "md5_signing_input",
    "new_nonce",
    "signature_headers",
    "RESPONSE_KEY_HEADER",
    "RESPONSE_SIGNATURE_HEADER",
    "RESPONSE_TIMESTAMP_HEADER",
    "RESPONSE_SIGNATURE_VERSION",
    "RESPONSE_VERSION_HEADER",
    "answer_distrust",
    "request_digest",
    "request_digest_input",
    "response_signing_input",
    "Session",
]
