package cardkey

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// A scripted aggregate entry under transport encryption: it opens data, checks the MD5 sign and
// answers data sealed with the same key, as the service does.
func sealedEntry(t *testing.T, transport LegacyTransport, legacySecret string) func(seen) reply {
	return func(s seen) reply {
		plain, err := transport.Open(s.form().Get("data"))
		if err != nil || s.Path != "/api/app" {
			return reply{Status: 400, Value: map[string]any{"code": CodeBadRequest, "msg": "bad"}}
		}
		inner, _ := url.ParseQuery(plain)
		fields := map[string]string{}
		for k := range inner {
			fields[k] = inner.Get(k)
		}
		if fields["sign"] != MD5Sign(fields, legacySecret) || fields["app"] != s.form().Get("app") {
			return reply{Value: map[string]any{"code": CodeSignatureInvalid, "msg": "bad sign"}}
		}
		data, _ := json.Marshal(map[string]any{"token": "tk", "code": fields["kami"], "machine_code": fields["imei"], "unbind_count": 1, "api": fields["api"]})
		sealed, _ := transport.Seal(string(data), nil)
		return reply{Value: map[string]any{"code": 1, "msg": "ok", "data": sealed}}
	}
}

func TestLegacyCallsThroughEachTransportEncryption(t *testing.T) {
	for _, mode := range []string{RC4, AES, AESGCM} {
		transport := LegacyTransport{Mode: mode, Key: "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c"}
		service := newService(t, sealedEntry(t, transport, "lg_test_secret"))
		c := clientFor(t, service.URL, func(o *Options) { o.LegacyTransport = &transport })
		routes, _ := c.Legacy()
		login := routes.CardLogin(ctx, "CK", "PC-1")
		unbind := routes.Unbind(ctx, "CK", "PC-1")
		if !login.Success || login.Data.Token != "tk" || login.Fields["api"] != "card_login" {
			t.Errorf("%s login %+v", mode, login)
		}
		if !unbind.Success || unbind.Data.UnbindCount != 1 || unbind.Fields["api"] != "card_unbind" {
			t.Errorf("%s unbind %+v", mode, unbind)
		}
		if sent := service.requests()[0].form(); len(sent) != 2 || sent.Get("app") != "48213907" {
			t.Errorf("%s: only app and data travel in clear, sent %v", mode, sent)
		}
	}
}

func TestSealedDataThatDoesNotOpenIsNeverASuccess(t *testing.T) {
	ours := LegacyTransport{Mode: AESGCM, Key: "the-service-key"}
	service := newService(t, func(s seen) reply {
		sealed, _ := (LegacyTransport{Mode: AESGCM, Key: "another-key"}).Seal(`{"machine_code":"PC-1"}`, nil)
		return reply{Value: map[string]any{"code": 1, "msg": "ok", "data": sealed}}
	})
	c := clientFor(t, service.URL, func(o *Options) { o.LegacyTransport = &ours })
	routes, _ := c.Legacy()
	if r := routes.CardLogin(ctx, "CK", "PC-1"); r.Success || r.Code != CodeUnexpectedResponse {
		t.Fatalf("%+v", r)
	}
}

func TestPlainLegacyLoginIsMD5SignedAndRefusalsKeepTheirCode(t *testing.T) {
	service := newService(t, always(reply{Value: map[string]any{"code": CodeDeviceLimitReached, "msg": "limit"}}))
	routes, _ := clientFor(t, service.URL).Legacy()
	r := routes.CardLogin(ctx, "CK", "PC-1")
	if r.Success || r.Code != CodeDeviceLimitReached {
		t.Fatalf("%+v", r)
	}
	req := service.requests()[0]
	if req.Path != "/api/card_login" || !strings.HasPrefix(string(req.Body), "app=48213907&kami=CK&imei=PC-1&nonce=") {
		t.Fatalf("sent %s %s", req.Path, req.Body)
	}
}

// Secrets never show in what a program may log: options, the client, a session, a failure.
func TestSecretsNeverShowWhenLogged(t *testing.T) {
	transport := &LegacyTransport{Mode: AES, Key: "transport-key-secret"}
	o := Options{BaseURL: "http://127.0.0.1:1", ProgramID: "48213907", APISecret: "api-secret-value", LegacySecret: "legacy-secret-value", LegacyTransport: transport, Retries: NoRetries}
	c, _ := New(o)
	_ = c.RestoreSession(Session{Type: CardSession, Token: "session-token-value", MachineID: "PC-1"})
	session, _ := c.Session()
	failure := c.CardLogin(ctx, "CK", "PC-1")
	logged := fmt.Sprintf("%v %+v %#v %v %+v %#v %v %+v %#v %v %#v %+v", o, o, o, c, c, c, session, session, session, *transport, transport, failure)
	for _, secret := range []string{"api-secret-value", "legacy-secret-value", "transport-key-secret", "session-token-value"} {
		if strings.Contains(logged, secret) {
			t.Errorf("%s shows in %s", secret, logged)
		}
	}
}
