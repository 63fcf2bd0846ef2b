package cardkey

import (
	"context"
	"net"
	"strings"
	"testing"
	"time"
)

var ctx = context.Background()

func TestCardLoginSignsTheBytesSentAndHoldsTheSession(t *testing.T) {
	service := newService(t, always(reply{Value: standardOK(cardSession(), "token", "login-token", "statecode", "active")}))
	c := clientFor(t, service.URL)
	login := c.CardLogin(ctx, "CK", "PC-1")
	if !login.Success || login.Code != 0 || login.Data.Token != "login-token" || login.Data.Statecode != "active" || login.Data.ID != 7 {
		t.Fatalf("login %+v", login)
	}
	req := service.requests()[0]
	if req.Path != "/api/v1/cards/login" || string(req.Body) != `{"app":"48213907","card_key":"CK","machine_id":"PC-1"}` {
		t.Fatalf("sent %s %s", req.Path, req.Body)
	}
	want := HMACSignature("sk_test_secret", "POST", req.Path, req.Header.Get(TimestampHeader), req.Header.Get(NonceHeader), req.Body)
	if req.Header.Get(SignatureHeader) != want || req.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("headers %v", req.Header)
	}
	session, held := c.Session()
	if !held || session.Type != CardSession || session.Token != "session-token-0123456789" || session.CardID != 7 || session.HeartbeatIntervalSeconds != 60 {
		t.Fatalf("session %+v", session)
	}
}

func TestBusinessRefusalsAreFailuresWithTheirCodeAndNeverRetried(t *testing.T) {
	service := newService(t, always(reply{Value: standardFailure(CodeCardExpired), Header: map[string]string{"X-Request-Id": "ignored"}}))
	c := clientFor(t, service.URL)
	r := c.CardLogin(ctx, "CK", "PC-1")
	if r.Success || r.Code != CodeCardExpired || r.Message != "failure 20002" || r.RequestID != "r1" || r.HTTPStatus != 200 {
		t.Fatalf("refusal %+v", r)
	}
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), "code 20002") {
		t.Fatalf("Err() %v", err)
	}
	if len(service.requests()) != 1 {
		t.Fatalf("%d requests for one refusal", len(service.requests()))
	}
	if _, held := c.Session(); held {
		t.Fatal("a refused login holds a session")
	}
}

func TestRateLimitedCarriesRetryAfterAndIsNotRetried(t *testing.T) {
	service := newService(t, always(reply{Status: 429, Value: standardFailure(CodeRateLimited), Header: map[string]string{"Retry-After": "17"}}))
	r := clientFor(t, service.URL).CardLogin(ctx, "CK", "PC-1")
	if r.Code != CodeRateLimited || r.RetryAfter != 17*time.Second || len(service.requests()) != 1 {
		t.Fatalf("%+v after %d requests", r, len(service.requests()))
	}
}

func TestEachFamilysSuccessRule(t *testing.T) {
	cases := []struct {
		name    string
		family  Family
		code    int
		body    map[string]any
		success bool
	}{
		{"Connect status true", Connect, anyCode, map[string]any{"status": true, "code": 1}, true},
		{"Connect code 0 without status", Connect, anyCode, map[string]any{"code": 0}, false},
		{"Connect status \"true\"", Connect, anyCode, map[string]any{"status": "true"}, false},
		{"standard success true", Standard, anyCode, map[string]any{"code": 0, "success": true}, true},
		{"standard code 0 alone", Standard, anyCode, map[string]any{"code": 0}, true},
		{"standard success false code 0", Standard, anyCode, map[string]any{"code": 0, "success": false}, false},
		{"unbind code 1", Standard, 1, map[string]any{"code": 1, "success": true}, true},
		{"unbind code 0", Standard, 1, map[string]any{"code": 0, "success": true}, false},
		{"info code 1", Standard, 0, map[string]any{"code": 1, "success": true}, false},
		{"legacy code 1", Legacy, anyCode, map[string]any{"code": 1}, true},
		{"legacy code 0", Legacy, anyCode, map[string]any{"code": 0}, false},
		{"legacy code true", Legacy, anyCode, map[string]any{"code": true}, false},
		{"legacy code \"1\"", Legacy, anyCode, map[string]any{"code": "1"}, false},
	}
	for _, tc := range cases {
		body := parseObject(jsonValue(tc.body))
		if got := IsSuccess(tc.family, body, tc.code); got != tc.success {
			t.Errorf("%s: success %v, want %v", tc.name, got, tc.success)
		}
	}
}

func TestAFailureCarryingCode0Or1IsUnexpectedNeverSuccess(t *testing.T) {
	service := newService(t, always(reply{Value: map[string]any{"code": 1, "success": false, "msg": "odd"}}))
	r := clientFor(t, service.URL).CardLogin(ctx, "CK", "PC-1")
	if r.Success || r.Code != CodeUnexpectedResponse {
		t.Fatalf("%+v", r)
	}
}

func TestTheSelfServiceUnbindSucceedsOnlyWithCode1(t *testing.T) {
	data := map[string]any{"id": 7, "code": "CK", "machine_code": "PC-1", "expires_at": "2030-01-01 00:00:00", "unbind_count": 1}
	ok := map[string]any{"code": 1, "success": true, "msg": "Unbound", "data": data}
	service := newService(t, always(reply{Value: ok}), always(reply{Value: standardOK(data)}))
	c := clientFor(t, service.URL)
	if r := c.CardUnbind(ctx, "CK", "PC-1"); !r.Success || r.Code != 1 || r.Data.UnbindCount != 1 {
		t.Fatalf("code 1: %+v", r)
	}
	if r := c.CardUnbind(ctx, "CK", "PC-1"); r.Success || r.Code != CodeUnexpectedResponse {
		t.Fatalf("code 0: %+v", r)
	}
}

func TestConnectLoginSuccessRefusalAndRenamedFields(t *testing.T) {
	success := map[string]any{"status": true, "code": 1, "reason": "ok", "data": map[string]any{"token": "tk", "machine_code": "PC-1"}}
	refusal := map[string]any{"status": false, "code": -20001, "reason": "The card key is invalid"}
	service := newService(t, always(reply{Value: success}), always(reply{Value: refusal}))
	c := clientFor(t, service.URL)
	if r := c.ConnectLogin(ctx, "CK", "PC-1", FreshNonce); !r.Success || r.Code != 1 || r.Data.Token != "tk" {
		t.Fatalf("success %+v", r)
	}
	if r := c.ConnectLogin(ctx, "CK", "PC-1", FreshNonce); r.Success || r.Code != CodeCardInvalid {
		t.Fatalf("Connect's -20001 comes back positive: %+v", r)
	}
	form := service.requests()[0].form()
	if service.requests()[0].Path != "/connect/48213907" || form.Get("user_key") != "CK" || len(form.Get("nonce")) != 24 {
		t.Fatalf("sent %v", form)
	}

	renamed := map[string]any{"ok": true, "code": 1, "data": map[string]any{"licence": "tk", "machine_code": "PC-1"}}
	custom := clientFor(t, newService(t, always(reply{Value: renamed})).URL, func(o *Options) {
		o.ConnectFieldNames = map[string]string{"status": "ok", "token": "licence"}
	})
	if r := custom.ConnectLogin(ctx, "CK", "PC-1", NoNonce); !r.Success || r.Data.Token != "tk" {
		t.Fatalf("renamed %+v", r)
	}
}

func TestASuccessNamingAnotherDeviceOrCardIsUntrusted(t *testing.T) {
	otherDevice := cardSession()
	otherDevice["machine_code"] = "RELAY-PC"
	otherCard := cardSession()
	otherCard["code"] = "RELAY-CARD"
	connect := map[string]any{"status": true, "code": 1, "data": map[string]any{"token": "tk", "machine_code": "RELAY-PC"}}
	service := newService(t, always(reply{Value: standardOK(otherDevice)}), always(reply{Value: standardOK(otherCard)}), always(reply{Value: connect}))
	c := clientFor(t, service.URL)
	for _, r := range []Result[CardData]{c.CardLogin(ctx, "CK", "PC-1"), c.CardLogin(ctx, "CK", "PC-1"), c.ConnectLogin(ctx, "CK", "PC-1", FreshNonce)} {
		if r.Success || r.Code != CodeUntrustedResponse || r.Data.Token != "" || r.Fields != nil {
			t.Fatalf("%+v", r)
		}
	}
	if _, held := c.Session(); held {
		t.Fatal("an untrusted login holds a session")
	}
}

func TestAMissingAnswerOfAnIdempotentCallIsRetriedBoundedly(t *testing.T) {
	service := newService(t, always(reply{Drop: true}), always(reply{Status: 502, Text: "<html>bad gateway</html>"}), always(reply{Value: standardOK(cardSession())}))
	c := clientFor(t, service.URL)
	if r := c.CardLogin(ctx, "CK", "PC-1"); !r.Success {
		t.Fatalf("%+v", r)
	}
	nonces := map[string]bool{}
	for _, req := range service.requests() {
		nonces[req.Header.Get(NonceHeader)] = true
	}
	if len(service.requests()) != 3 || len(nonces) != 3 {
		t.Fatalf("%d attempts with %d nonces, want 3 each signed afresh", len(service.requests()), len(nonces))
	}

	down := newService(t, always(reply{Drop: true}))
	r := clientFor(t, down.URL).CardLogin(ctx, "CK", "PC-1")
	if r.Code != CodeNetworkError || len(down.requests()) != 1+DefaultRetries {
		t.Fatalf("%+v after %d attempts", r, len(down.requests()))
	}
}

func TestCallsThatMustNotRepeatAreNeverRetried(t *testing.T) {
	service := newService(t, always(reply{Status: 503, Text: "<html>unavailable</html>"}))
	c := clientFor(t, service.URL)
	results := []int{
		c.UserRegister(ctx, "li.wei", "pass-word-1", "PC-1").Code,
		c.CardTopup(ctx, "CK", "TOPUP").Code,
		c.CardUnbind(ctx, "CK", "PC-1").Code,
		c.ConnectLogin(ctx, "CK", "PC-1", OwnNonce("my-nonce-1")).Code,
	}
	for i, code := range results {
		if code != CodeNetworkError {
			t.Errorf("call %d: code %d", i, code)
		}
	}
	if len(service.requests()) != len(results) {
		t.Fatalf("%d requests for %d calls", len(service.requests()), len(results))
	}
}

func TestATimeoutBoundsEachAttemptAndCancellingStopsTheCall(t *testing.T) {
	service := newService(t, always(reply{Hang: 5 * time.Second}))
	c := clientFor(t, service.URL, func(o *Options) { o.Timeout = 100 * time.Millisecond; o.Retries = NoRetries })
	start := time.Now()
	r := c.CardLogin(ctx, "CK", "PC-1")
	if r.Code != CodeNetworkError || !strings.Contains(r.Message, "timed out") || time.Since(start) > 2*time.Second {
		t.Fatalf("%+v after %v", r, time.Since(start))
	}
	cancelled, cancel := context.WithCancel(ctx)
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	start = time.Now()
	r = clientFor(t, service.URL).CardLogin(cancelled, "CK", "PC-1")
	if r.Code != CodeNetworkError || !strings.Contains(r.Message, "cancelled") || time.Since(start) > time.Second {
		t.Fatalf("%+v after %v", r, time.Since(start))
	}
}

func TestRedirectsHTMLAndEmptyBodiesAreUnexpectedAndNotFollowed(t *testing.T) {
	service := newService(t,
		always(reply{Status: 302, Header: map[string]string{"Location": "/elsewhere"}, Value: map[string]any{"code": 0, "success": true}}),
		always(reply{Text: "<html>login page</html>"}),
		always(reply{}))
	c := clientFor(t, service.URL)
	for i := 0; i < 3; i++ {
		if r := c.CardLogin(ctx, "CK", "PC-1"); r.Success || r.Code != CodeUnexpectedResponse {
			t.Fatalf("answer %d: %+v", i, r)
		}
	}
	if len(service.requests()) != 3 {
		t.Fatalf("%d requests: a redirect was followed", len(service.requests()))
	}
}

func TestAnUnreachableServiceIsANetworkError(t *testing.T) {
	listener, _ := net.Listen("tcp", "127.0.0.1:0")
	address := listener.Addr().String()
	listener.Close()
	r := clientFor(t, "http://"+address).V3CardLogin(ctx, "CK", "PC-1")
	if r.Success || r.Code != CodeNetworkError || r.HTTPStatus != 0 {
		t.Fatalf("%+v", r)
	}
}

func TestV3LoginSendsASignedFormAndOpensNoSession(t *testing.T) {
	data := map[string]any{"id": 7, "code": "C K&1", "machine_code": "PC-1"}
	service := newService(t, always(reply{Value: standardOK(data, "token", "tk", "statecode", "active")}))
	c := clientFor(t, service.URL)
	r := c.V3CardLogin(ctx, "C K&1", "PC-1")
	req := service.requests()[0]
	if !r.Success || r.Data.Token != "tk" || string(req.Body) != "app=48213907&kami=C+K%261&imei=PC-1" || req.Header.Get("Content-Type") != formType {
		t.Fatalf("%+v sent %s", r, req.Body)
	}
	if _, held := c.Session(); held {
		t.Fatal("a V3 login holds a session")
	}
}

func TestFeaturesOfACardAnswerAreExposed(t *testing.T) {
	data := cardSession()
	data["features"] = []string{"pro", "export.pdf"}
	r := clientFor(t, newService(t, always(reply{Value: standardOK(data)})).URL).CardLogin(ctx, "CK", "PC-1")
	if !r.Success || strings.Join(r.Features, ",") != "pro,export.pdf" || strings.Join(r.Data.Features, ",") != "pro,export.pdf" {
		t.Fatalf("%+v", r)
	}
}

func TestCardTrialSignsTheMachineAndExposesTrial(t *testing.T) {
	trial := map[string]any{"code": "TRIAL-1", "expires_at": "2030-01-01 00:00:00", "machine_code": "PC-1", "trial": true, "features": []string{"basic"}}
	service := newService(t, always(reply{Value: standardOK(trial)}), always(reply{Value: standardFailure(CodeTrialUsed)}),
		always(reply{Value: standardOK(map[string]any{"code": "TRIAL-2", "machine_code": "PC-2", "trial": true})}))
	c := clientFor(t, service.URL)
	r := c.CardTrial(ctx, "PC-1")
	if !r.Success || !r.Trial || !r.Data.Trial || r.Data.Code != "TRIAL-1" || strings.Join(r.Features, ",") != "basic" {
		t.Fatalf("%+v", r)
	}
	req := service.requests()[0]
	if req.Path != "/api/v1/cards/trial" || string(req.Body) != `{"app":"48213907","machine_id":"PC-1"}` {
		t.Fatalf("sent %s %s", req.Path, req.Body)
	}
	if used := c.CardTrial(ctx, "PC-1"); used.Success || used.Code != CodeTrialUsed || CodeTrialUsed != 20011 {
		t.Fatalf("%+v", used)
	}
	if relayed := c.CardTrial(ctx, "PC-1"); relayed.Success || relayed.Code != CodeUntrustedResponse {
		t.Fatalf("an answer for another device: %+v", relayed)
	}
	login := cardSession()
	if plain := clientFor(t, newService(t, always(reply{Value: standardOK(login)})).URL).CardLogin(ctx, "CK", "PC-1"); !plain.Success || plain.Trial {
		t.Fatalf("a card answer without trial: %+v", plain)
	}
}

func TestUserLoginHoldsAUserSessionOnTheBoundMachine(t *testing.T) {
	data := map[string]any{"profile": map[string]any{"user_id": 9, "username": "li.wei", "status": "active"}, "session_token": "user-token", "session_expires_at": "2030-01-01 00:10:00", "machine_id": "PC-BOUND", "heartbeat_interval_seconds": 30}
	service := newService(t, always(reply{Value: standardOK(data)}), always(reply{Value: standardOK(map[string]any{"user_id": 9, "session_expires_at": "2030-01-01 00:20:00"})}))
	c := clientFor(t, service.URL)
	if r := c.UserLogin(ctx, "li.wei", "pass-word-1", "PC-1"); !r.Success || r.Data.Profile.UserID != 9 {
		t.Fatalf("%+v", r)
	}
	if r := c.CardHeartbeat(ctx); r.Code != CodeNoSession {
		t.Fatalf("card heartbeat on a user session: %+v", r)
	}
	beat := c.UserHeartbeat(ctx)
	session, _ := c.Session()
	req := service.requests()[1]
	if !beat.Success || session.ExpiresAt != "2030-01-01 00:20:00" || req.Header.Get("Authorization") != "Bearer user-token" || string(req.Body) != `{"machine_id":"PC-BOUND"}` {
		t.Fatalf("%+v %+v sent %s", beat, session, req.Body)
	}
}

func TestOptionsAreChecked(t *testing.T) {
	bad := []Options{
		{ProgramID: "48213907", APISecret: "s"},
		{BaseURL: "ftp://x", ProgramID: "48213907", APISecret: "s"},
		{BaseURL: "http://x", APISecret: "s"},
		{BaseURL: "http://x", ProgramID: "48213907"},
		{BaseURL: "http://x", ProgramID: "48213907", APISecret: "s", ResponseKeys: map[string]string{"k": "not-a-key"}},
		{BaseURL: "http://x", ProgramID: "48213907", APISecret: "s", LegacyTransport: &LegacyTransport{Mode: "des", Key: "k"}},
	}
	for i, o := range bad {
		if _, err := New(o); err == nil {
			t.Errorf("options %d accepted", i)
		}
	}
	c := clientFor(t, "http://x", func(o *Options) { o.LegacySecret = "" })
	if _, err := c.Legacy(); err == nil {
		t.Error("legacy routes without a legacy secret")
	}
}
