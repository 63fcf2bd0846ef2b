package cardkey

import (
	"encoding/json"
	"testing"
)

// The answer types carry each time's _iso sibling; an older service's answer without them still decodes.
func TestAnswerTypesCarryISOSiblings(t *testing.T) {
	var card CardData
	mustDecode(t, `{"expires_at":"2030-01-01 08:00:00","expires_at_iso":"2030-01-01T08:00:00+08:00",
		"session_expires_at":"2030-01-01 09:00:00","session_expires_at_iso":"2030-01-01T09:00:00+08:00"}`, &card)
	if card.ExpiresAtISO != "2030-01-01T08:00:00+08:00" || card.SessionExpiresAtISO != "2030-01-01T09:00:00+08:00" {
		t.Fatalf("card: %+v", card)
	}

	var info CardInfoData
	mustDecode(t, `{"activated_at_iso":"2029-12-01T08:00:00+08:00","expires_at_iso":null,
		"devices":[{"bound_at_iso":"2029-12-01T08:00:00+08:00","last_login_at_iso":null}]}`, &info)
	if info.ActivatedAtISO == nil || *info.ActivatedAtISO != "2029-12-01T08:00:00+08:00" || info.ExpiresAtISO != nil {
		t.Fatalf("info: %+v", info)
	}
	if info.Devices[0].BoundAtISO != "2029-12-01T08:00:00+08:00" || info.Devices[0].LastLoginAtISO != nil {
		t.Fatalf("device: %+v", info.Devices[0])
	}

	var login UserLoginData
	mustDecode(t, `{"profile":{"created_at_iso":"2029-01-01T00:00:00Z","last_login_at_iso":"2029-02-01T00:00:00Z"},
		"session_expires_at_iso":"2029-02-01T01:00:00Z"}`, &login)
	if login.Profile.CreatedAtISO != "2029-01-01T00:00:00Z" || login.Profile.LastLoginAtISO != "2029-02-01T00:00:00Z" ||
		login.SessionExpiresAtISO != "2029-02-01T01:00:00Z" {
		t.Fatalf("user login: %+v", login)
	}

	var heartbeat HeartbeatData
	var trial CardTrialData
	var checkout CheckoutData
	mustDecode(t, `{"session_expires_at_iso":"A"}`, &heartbeat)
	mustDecode(t, `{"expires_at_iso":"B"}`, &trial)
	mustDecode(t, `{"expires_at_iso":"C"}`, &checkout)
	if heartbeat.SessionExpiresAtISO != "A" || trial.ExpiresAtISO != "B" || checkout.ExpiresAtISO != "C" {
		t.Fatalf("heartbeat %+v, trial %+v, checkout %+v", heartbeat, trial, checkout)
	}

	var older CardData
	mustDecode(t, `{"expires_at":"2030-01-01 08:00:00"}`, &older)
	if older.ExpiresAtISO != "" {
		t.Fatalf("older service: %+v", older)
	}
}

func mustDecode(t *testing.T, body string, into any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), into); err != nil {
		t.Fatal(err)
	}
}
