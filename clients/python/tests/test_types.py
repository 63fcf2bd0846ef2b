"""The answer types name each time's ``_iso`` sibling, optional (an older service leaves it out)."""

from __future__ import annotations

import unittest

from cardkey_client import types

ISO_SIBLINGS = {
    "StandardCardData": {"expires_at_iso"},
    "SdkCardLoginData": {"expires_at_iso", "session_expires_at_iso"},
    "HeartbeatData": {"session_expires_at_iso"},
    "UserProfile": {"created_at_iso", "last_login_at_iso"},
    "UserLoginData": {"session_expires_at_iso"},
    "ConnectLoginData": {"expires_at_iso"},
    "LegacyLoginData": {"expires_at_iso"},
    "LegacyUnbindData": {"expires_at_iso"},
    "CheckoutData": {"expires_at_iso"},
    "CardSummary": {"expires_at_iso"},
    "CardTopupData": {"expires_at_iso", "activated_at_iso"},
    "CardDevice": {"bound_at_iso", "last_login_at_iso"},
    "CardTrialData": {"expires_at_iso"},
    "CardInfoData": {"expires_at_iso", "activated_at_iso"},
    "CardUnbindData": {"expires_at_iso"},
}


class IsoSiblingsTest(unittest.TestCase):
    def test_every_time_has_its_optional_iso_sibling(self) -> None:
        for name, siblings in ISO_SIBLINGS.items():
            with self.subTest(name):
                answer = getattr(types, name)
                self.assertEqual({key for key in answer.__annotations__ if key.endswith("_iso")}, siblings)
                self.assertTrue(siblings <= answer.__optional_keys__)
                for sibling in siblings:
                    self.assertIn(sibling[: -len("_iso")], answer.__annotations__)

    def test_the_fields_that_were_required_stay_required(self) -> None:
        self.assertIn("expires_at", types.StandardCardData.__required_keys__)
        self.assertIn("kind", types.CardInfoData.__required_keys__)
        self.assertIn("bound_at", types.CardDevice.__required_keys__)


if __name__ == "__main__":
    unittest.main()
