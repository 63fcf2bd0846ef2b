"""The machine-code helper against the shared vectors, and on Linux the real device id."""

from __future__ import annotations

import re
import sys
import unittest
from typing import Optional

from cardkey_client import machine_code, machine_code_from, raw_machine_id
from support import load_vectors

VECTORS = load_vectors()


def _linux_id() -> Optional[str]:
    """The first non-empty Linux id file, as machine_code reads it, or None (a bare container)."""
    for path in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            with open(path, encoding="utf-8") as f:
                ident = f.read().strip()
        except OSError:
            continue
        if ident:
            return ident
    return None


class MachineCodeTest(unittest.TestCase):
    def test_matches_every_shared_vector(self) -> None:
        self.assertGreater(len(VECTORS["machine_code"]["cases"]), 0)
        for vector in VECTORS["machine_code"]["cases"]:
            with self.subTest(vector["name"]):
                self.assertEqual(machine_code_from(vector["program_id"], vector["raw_id"]), vector["code"])

    def test_differs_per_program_and_is_32_hex(self) -> None:
        code = machine_code_from("48213907", "abc")
        self.assertRegex(code, re.compile(r"^[0-9a-f]{32}$"))
        self.assertNotEqual(code, machine_code_from("48213908", "abc"))

    def test_refuses_an_empty_program_or_raw_id(self) -> None:
        with self.assertRaises(ValueError):
            machine_code_from("", "abc")
        with self.assertRaises(ValueError):
            machine_code_from("48213907", " \n")
        with self.assertRaises(ValueError):
            machine_code("")

    def test_linux_same_code_twice_and_the_hash_of_machine_id(self) -> None:
        ident = _linux_id() if sys.platform.startswith("linux") else None
        if ident is None:
            self.skipTest("not Linux, or no machine-id file")
        first = machine_code("48213907")
        self.assertEqual(machine_code("48213907"), first)
        self.assertEqual(first, machine_code_from("48213907", ident))
        self.assertEqual(raw_machine_id(), ident.lower())
        self.assertNotEqual(machine_code("10000001"), first)


if __name__ == "__main__":
    unittest.main()
