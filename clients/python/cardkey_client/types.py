"""Shapes of the answers' ``data`` and of the held session.

The ``data`` dictionaries are the service's own (snake_case) and may gain fields at any time: the
TypedDicts document the fields a caller can rely on, they do not restrict what is kept.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Dict, List, Mapping, Optional, TypedDict

#: The kinds of session an SDK login opens.
SESSION_TYPES = ("card", "app_user")

# Each ``*_iso`` field is the instant of the field without ``_iso`` in ISO 8601 with the service
# zone's offset (docs/protocol.md, "Times and zones"); an older service leaves it out, so the
# mixins below make it optional beside the required fields of each answer.


class _ExpiresAtIso(TypedDict, total=False):
    expires_at_iso: str


class _OptionalExpiresAtIso(TypedDict, total=False):
    expires_at_iso: Optional[str]


class _ProfileTimesIso(TypedDict, total=False):
    created_at_iso: str
    last_login_at_iso: Optional[str]


class _DeviceTimesIso(TypedDict, total=False):
    bound_at_iso: str
    last_login_at_iso: Optional[str]


class StandardCardData(_ExpiresAtIso):
    """V3 and SDK card login; ``token`` and ``statecode`` are copied in from the answer's top level."""

    id: int
    code: str
    machine_code: str
    expires_at: str
    token: str
    statecode: str


class SdkCardLoginData(StandardCardData, total=False):
    session_token: str
    session_expires_at: str
    session_expires_at_iso: str
    heartbeat_interval_seconds: int


class HeartbeatData(TypedDict, total=False):
    session_expires_at: str
    session_expires_at_iso: str
    server_time: int
    card_id: int
    user_id: int


class UserProfile(_ProfileTimesIso):
    user_id: int
    username: str
    status: str
    created_at: str
    last_login_at: Optional[str]


class UserRegisterData(TypedDict):
    user_id: int
    username: str
    status: str


class UserLoginData(TypedDict, total=False):
    profile: UserProfile
    session_token: str
    session_expires_at: str
    session_expires_at_iso: str
    #: The machine the account is finally bound to.
    machine_id: str
    heartbeat_interval_seconds: int


class VersionData(TypedDict):
    latest_version: Optional[str]
    update_available: bool
    force_update: bool
    changelog: Optional[str]
    download_url: Optional[str]


class ConnectLoginData(_ExpiresAtIso):
    token: str
    expires_at: str
    device_limit: int
    server_time: int
    machine_code: str
    announcement: str


class LegacyLoginData(_ExpiresAtIso):
    token: str
    id: int
    code: str
    machine_code: str
    expires_at: str
    device_limit: int


class LegacyUnbindData(_ExpiresAtIso):
    id: int
    code: str
    machine_code: str
    expires_at: str
    unbind_count: int


class CheckoutData(_ExpiresAtIso):
    #: ``base64url(payload).base64url(signature)``: keep it; verify it with ``Client.check_licence``.
    licence: str
    kid: str
    #: ``YYYY-MM-DD HH:MM:SS`` in the service time zone.
    expires_at: str
    #: Unix seconds.
    valid_until: int


class CardSummary(_OptionalExpiresAtIso):
    """A card as its holder sees it (decisions §13–14).

    ``kind`` is ``time`` or ``count``; ``status`` is ``unused``, ``active`` or ``banned``;
    ``expires_at`` (``YYYY-MM-DD HH:MM:SS``, service time zone) is None while the card is unused
    (its time starts at the first login); ``uses_left`` is None for a time card.
    """

    kind: str
    status: str
    expires_at: Optional[str]
    uses_left: Optional[int]


class CardTopupData(CardSummary, total=False):
    """``/api/v1/cards/topup`` success data: the target card after the top-up.

    The decisions fix only that the target card is answered: count on ``kind``, ``status``,
    ``expires_at`` and ``uses_left``; the other fields of ``card_info`` may or may not be present.
    """

    activated_at: Optional[str]
    activated_at_iso: Optional[str]
    device_limit: int
    concurrent_limit: Optional[int]


class CardDevice(_DeviceTimesIso):
    """One device bound to a card, with its last successful login (None when none is logged)."""

    machine_code: str
    bound_at: str
    last_login_at: Optional[str]


class CardUnbindRules(TypedDict):
    """What the holder's unbind (``card_unbind``) would cost: the program's rules and what is left."""

    enabled: bool
    #: Taken off ``expires_at`` by each unbind (not off a permanent card).
    deduct_seconds: int
    #: Unbinds left for this card; None = unlimited.
    remaining: Optional[int]


class CardTrialData(_ExpiresAtIso):
    """``/api/v1/cards/trial`` success data (decisions §21): the device's one trial card, already bound to it."""

    #: The trial card key: log in with it (``card_login``).
    code: str
    #: ``YYYY-MM-DD HH:MM:SS`` in the service time zone.
    expires_at: str
    #: The device the card is bound to; the client checks it is this one.
    machine_code: str
    trial: bool
    features: List[str]


class _ActivatedAtIso(TypedDict, total=False):
    activated_at_iso: Optional[str]


class CardInfoData(CardSummary, _ActivatedAtIso):
    """``/api/v1/cards/info`` success data (decisions §14)."""

    activated_at: Optional[str]
    device_limit: int
    #: Live sessions allowed at once; None = unlimited.
    concurrent_limit: Optional[int]
    devices: List[CardDevice]
    unbind: CardUnbindRules


class CardUnbindData(_ExpiresAtIso):
    """``/api/v1/cards/unbind`` success data (answered with ``code: 1``): the card after the unbind."""

    id: int
    code: str
    #: The device unbound.
    machine_code: str
    #: After the deduction, if any.
    expires_at: str
    #: Unbinds of this card so far.
    unbind_count: int


@dataclass
class Session:
    """The session the client holds after an SDK card or user login.

    Save ``session.to_dict()`` at exit and give ``Session.from_dict(saved)`` to
    ``Client.restore_session`` at the next start, to go on heartbeating without a new login.
    """

    type: str  # "card" or "app_user"
    token: str
    machine_id: str
    expires_at: str
    #: The program's heartbeat interval, when the service sent it.
    heartbeat_interval_seconds: Optional[int] = None
    #: The card of a card session (its login's ``id``): a heartbeat answer must name it (``card_id``).
    card_id: Optional[int] = None
    #: The user of a user session (its login's ``profile.user_id``): a heartbeat answer must name it (``user_id``).
    user_id: Optional[int] = None

    def to_dict(self) -> Dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, saved: Mapping[str, Any]) -> "Session":
        return cls(
            type=saved["type"],
            token=saved["token"],
            machine_id=saved["machine_id"],
            expires_at=saved.get("expires_at", ""),
            heartbeat_interval_seconds=saved.get("heartbeat_interval_seconds"),
            card_id=saved.get("card_id"),
            user_id=saved.get("user_id"),
        )
