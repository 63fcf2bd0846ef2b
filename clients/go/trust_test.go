package cardkey

import (
	"strings"
	"testing"
	"time"
)

// With pinned keys only an answer signed (v2) over this very request is believed.

func TestPinnedKeysBelieveOnlyAnswersSignedOverThisRequest(t *testing.T) {
	key, keys := testKey(t)
	var kid string
	for k := range keys {
		kid = k
	}
	success := standardOK(cardSession())
	genuine := signedReply(key, kid, 200, success)
	cases := []struct {
		name   string
		script func(seen) reply
		reason string
	}{
		{"unsigned", always(reply{Value: success}), "not signed"},
		{"signed in v1", func(s seen) reply {
			r := genuine(s)
			delete(r.Header, ResponseVersionHeader)
			return r
		}, "version 2"},
		{"tampered body", func(s seen) reply {
			r := genuine(s)
			r.Text = strings.Replace(r.Text, `"PC-1"`, `"PC-2"`, 1)
			return r
		}, "does not verify"},
		{"answer to another nonce", func(s seen) reply {
			s.Header = s.Header.Clone()
			s.Header.Set(NonceHeader, "old-nonce-1")
			return genuine(s)
		}, "does not verify"},
		{"answer to another card (a relay)", func(s seen) reply {
			s.Body = []byte(strings.Replace(string(s.Body), `"CK"`, `"RELAY"`, 1))
			return genuine(s)
		}, "does not verify"},
		{"signed by another status", func(s seen) reply {
			r := signedReply(key, kid, 201, success)(s)
			r.Status = 200
			return r
		}, "does not verify"},
		{"an unknown key", signedReply(key, "0000000000000000", 200, success), "unknown key"},
	}
	for _, tc := range cases {
		c := clientFor(t, newService(t, tc.script).URL, func(o *Options) { o.ResponseKeys = keys })
		r := c.CardLogin(ctx, "CK", "PC-1")
		if r.Success || r.Code != CodeUntrustedResponse || !strings.Contains(r.Message, tc.reason) || r.Data.SessionToken != "" {
			t.Errorf("%s: %+v", tc.name, r)
		}
		if _, held := c.Session(); held {
			t.Errorf("%s: an untrusted login holds a session", tc.name)
		}
	}

	c := clientFor(t, newService(t, genuine).URL, func(o *Options) { o.ResponseKeys = keys })
	if r := c.CardLogin(ctx, "CK", "PC-1"); !r.Success {
		t.Fatalf("genuine answer: %+v", r)
	}
	nothingPinned := clientFor(t, newService(t, genuine).URL, func(o *Options) { o.ResponseKeys = map[string]string{} })
	if r := nothingPinned.CardLogin(ctx, "CK", "PC-1"); r.Code != CodeUntrustedResponse {
		t.Fatalf("an empty set of pinned keys trusts nothing: %+v", r)
	}
}

func TestASignedRefusalIsBelievedAsARefusal(t *testing.T) {
	key, keys := testKey(t)
	for kid := range keys {
		c := clientFor(t, newService(t, signedReply(key, kid, 200, standardFailure(CodeDeviceLimitReached))).URL, func(o *Options) { o.ResponseKeys = keys })
		if r := c.CardLogin(ctx, "CK", "PC-1"); r.Success || r.Code != CodeDeviceLimitReached {
			t.Fatalf("%+v", r)
		}
	}
}

func TestAStaleSignedAnswerIsUntrusted(t *testing.T) {
	key, keys := testKey(t)
	for kid := range keys {
		c := clientFor(t, newService(t, signedReply(key, kid, 200, standardOK(cardSession()))).URL, func(o *Options) { o.ResponseKeys = keys })
		c.now = func() time.Time { return time.Now().Add(time.Hour) }
		if r := c.CardLogin(ctx, "CK", "PC-1"); r.Code != CodeUntrustedResponse || !strings.Contains(r.Message, "time window") {
			t.Fatalf("%+v", r)
		}
	}
}

func TestSignedConnectAndLegacyAnswersCoverTheFormNonce(t *testing.T) {
	key, keys := testKey(t)
	var kid string
	for k := range keys {
		kid = k
	}
	connect := map[string]any{"status": true, "code": 1, "data": map[string]any{"token": "tk", "machine_code": "PC-1"}}
	legacy := map[string]any{"code": 1, "msg": "ok", "data": map[string]any{"token": "tk", "code": "CK", "machine_code": "PC-1"}}
	service := newService(t, signedReply(key, kid, 200, connect), signedReply(key, kid, 200, legacy))
	c := clientFor(t, service.URL, func(o *Options) { o.ResponseKeys = keys })
	if r := c.ConnectLogin(ctx, "CK", "PC-1", FreshNonce); !r.Success {
		t.Fatalf("Connect %+v", r)
	}
	routes, _ := c.Legacy()
	if r := routes.CardLogin(ctx, "CK", "PC-1"); !r.Success || r.Code != 1 {
		t.Fatalf("legacy %+v", r)
	}
	form := service.requests()[1].form()
	if form.Get("nonce") == "" || form.Get("sign") != MD5Sign(map[string]string{"app": "48213907", "kami": "CK", "imei": "PC-1", "nonce": form.Get("nonce"), "t": form.Get("t")}, "lg_test_secret") {
		t.Fatalf("legacy form %v", form)
	}
}

func TestCheckLicenceNeedsPinnedKeys(t *testing.T) {
	v := loadVectors(t).Ed25519.Licences[0]
	c := clientFor(t, "http://x")
	if check := c.CheckLicence(v.Licence, v.CardKey, "PC-001"); check.Valid {
		t.Fatal("a licence believed without pinned keys")
	}
	_, keys := testKey(t)
	c = clientFor(t, "http://x", func(o *Options) { o.ResponseKeys = keys; o.ProgramID = "48213907" })
	c.now = func() time.Time { return time.Unix(1763800000, 0) }
	if check := c.CheckLicence(v.Licence, v.CardKey, "PC-001"); !check.Valid || check.Payload.MachineID != "PC-001" {
		t.Fatalf("%+v", check)
	}
}
