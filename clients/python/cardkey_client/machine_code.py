"""The machine code of a device for one program (docs/protocol.md, "The machine code").

What to send as ``machine_id`` / ``imei``: the same in all five official clients, checked against
``sdk/vectors/signing-vectors.json`` (``machine_code``)::

    the raw id trimmed (spaces, tabs, CR, LF) and ASCII-lowercased, then the first 32 characters
    of the lowercase hex SHA-256 of UTF-8 ``program_id + ":" + raw_id``.

Sources: Windows ``HKLM\\SOFTWARE\\Microsoft\\Cryptography\\MachineGuid`` (then the SMBIOS UUID),
Linux ``/etc/machine-id`` (then ``/var/lib/dbus/machine-id``), macOS ``IOPlatformUUID``. Stable
across reboots, different for every program, no network, no administrator rights.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from typing import Callable, List, Optional, Tuple

__all__ = ["machine_code", "machine_code_from", "raw_machine_id"]

_ASCII_UPPER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
# Firmware that fills the SMBIOS UUID with zeros or FFs gives every device the same id.
_PLACEHOLDER = re.compile(r"^[0-]+$|^[f-]+$")


def _normalize(raw_id: str) -> str:
    return raw_id.strip(" \t\r\n").translate(_ASCII_UPPER)


def machine_code_from(program_id: str, raw_id: str) -> str:
    """The machine code of ``raw_id`` for ``program_id`` (pure: reads nothing)."""
    if not isinstance(program_id, str) or program_id == "":
        raise ValueError("program_id is required")
    if not isinstance(raw_id, str):
        raise ValueError("raw_id must be a string")
    ident = _normalize(raw_id)
    if ident == "":
        raise ValueError("raw_id is empty")
    return hashlib.sha256(f"{program_id}:{ident}".encode("utf-8")).hexdigest()[:32]


def machine_code(program_id: str) -> str:
    """This device's machine code for ``program_id``.

    Raises ``ValueError`` for an empty ``program_id`` and ``OSError`` when the device has no stable
    id (a container without ``/etc/machine-id``, for instance).
    """
    if not isinstance(program_id, str) or program_id == "":
        raise ValueError("program_id is required")
    return machine_code_from(program_id, raw_machine_id())


def _run(args: List[str]) -> str:
    flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)
    done = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=10, check=True, creationflags=flags)
    return done.stdout.decode("utf-8", "replace")


def _file(path: str) -> Tuple[str, Callable[[], str]]:
    def read() -> str:
        with open(path, "r", encoding="utf-8") as f:
            return f.read()

    return path, read


def _windows_guid() -> str:
    import winreg  # type: ignore[import-not-found]  # Windows only

    # KEY_WOW64_64KEY: a 32-bit Python would otherwise read WOW6432Node, which has no MachineGuid.
    access = winreg.KEY_READ | winreg.KEY_WOW64_64KEY  # type: ignore[attr-defined]
    with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, r"SOFTWARE\Microsoft\Cryptography", 0, access) as key:  # type: ignore[attr-defined]
        value, _ = winreg.QueryValueEx(key, "MachineGuid")  # type: ignore[attr-defined]
    return str(value)


def _smbios_uuid() -> str:
    return _run(["powershell.exe", "-NoProfile", "-NonInteractive", "-Command", "(Get-CimInstance -ClassName Win32_ComputerSystemProduct).UUID"])


def _platform_uuid() -> str:
    match = re.search(r'"IOPlatformUUID"\s*=\s*"([^"]+)"', _run(["/usr/sbin/ioreg", "-rd1", "-c", "IOPlatformExpertDevice"]))
    return match.group(1) if match else ""


def _sources(platform: str) -> List[Tuple[str, Callable[[], str]]]:
    if platform == "win32":
        return [(r"HKLM\SOFTWARE\Microsoft\Cryptography\MachineGuid", _windows_guid), ("SMBIOS UUID", _smbios_uuid)]
    if platform == "darwin":
        return [("IOPlatformUUID", _platform_uuid)]
    # Linux, and other systems with systemd's or D-Bus's id.
    return [_file("/etc/machine-id"), _file("/var/lib/dbus/machine-id")]


def raw_machine_id(platform: Optional[str] = None) -> str:
    """The raw id ``machine_code`` hashes (trimmed, lowercase). Raises ``OSError`` when there is none."""
    sources = _sources(platform or sys.platform)
    for _, read in sources:
        try:
            ident = _normalize(read())
        except (OSError, ValueError, subprocess.SubprocessError):
            ident = ""
        if ident and not _PLACEHOLDER.match(ident):
            return ident
    raise OSError("machine_code: no stable machine id on this device (tried " + ", ".join(name for name, _ in sources) + ")")
