"""Small readers of decoded JSON values, shared by the modules that judge answers.

JSON ``true`` decodes to a Python ``bool``, which is also an ``int`` (``True == 1``): these
helpers keep booleans from passing as numbers, so ``{"code": true}`` is never a legacy success.
"""

from __future__ import annotations

import base64
import json
import math
from typing import Any, Dict, Optional, Union

Number = Union[int, float]


def as_number(value: Any) -> Optional[Number]:
    """The value when it is a finite JSON number (not a boolean), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) else None


def as_integer(value: Any) -> Optional[int]:
    """The value as an int when it is a whole JSON number (``1`` or ``1.0``), else None."""
    number = as_number(value)
    if number is None or (isinstance(number, float) and not number.is_integer()):
        return None
    return int(number)


def as_str(value: Any) -> Optional[str]:
    return value if isinstance(value, str) else None


def as_object(value: Any) -> Optional[Dict[str, Any]]:
    return value if isinstance(value, dict) else None


def parse_object(text: str) -> Optional[Dict[str, Any]]:
    """The JSON object in ``text``, or None for anything else (NaN and Infinity are not JSON)."""
    try:
        return as_object(json.loads(text, parse_constant=_refuse_constant))
    except ValueError:
        return None


def b64url_decode(text: str) -> bytes:
    """base64url with or without padding; raises ValueError on anything else."""
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("not base64url")
    return base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
