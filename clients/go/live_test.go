package cardkey

// Live tests: the client against a real service, run by test/e2e/clients/go-client.e2e-spec.ts, which starts
// the service, arranges a program (Connect open, unbinding on, offline_grace_seconds > 0, trials on), unused
// cards, a program user, one program per transport encryption and a relay, then runs
// `go test -race -run Live ./...` here with this environment. Without CARDKEY_LIVE_URL they skip.
//
//	CARDKEY_LIVE_URL CARDKEY_PROGRAM_ID CARDKEY_API_SECRET CARDKEY_LEGACY_SECRET CARDKEY_PROJECT_ID
//	CARDKEY_ADMIN_TOKEN CARDKEY_USER_NAME CARDKEY_USER_PASSWORD CARDKEY_RESPONSE_KEYS ({"kid": "key"})
//	CARDKEY_CARD_{SDK,LOOP,V3,CONNECT,LEGACY,PINNED,SELF,TOPUP,RELAY_GENUINE} (unused cards)
//	CARDKEY_SEALED_PROGRAMS ([{"mode","program_id","api_secret","legacy_secret","transport_key","card"}])
//	CARDKEY_RELAY_URL CARDKEY_RELAY_TYPED_KEY CARDKEY_RELAY_MACHINE (test/support/relay.ts)

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

var (
	liveTimestamp = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`)
	liveToken     = regexp.MustCompile(`^[\w-]{43}$`)
	// The RFC 8032 test key: a valid key, but not this program's.
	foreignKeys = map[string]string{"21fe31dfa154a261": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}
)

func liveEnv(t *testing.T, name string) string {
	t.Helper()
	if os.Getenv("CARDKEY_LIVE_URL") == "" {
		t.Skip("CARDKEY_LIVE_URL is not set: no service to test against")
	}
	value := os.Getenv("CARDKEY_" + name)
	if value == "" {
		t.Fatalf("CARDKEY_%s is not set", name)
	}
	return value
}

func liveClient(t *testing.T, edit ...func(*Options)) *Client {
	t.Helper()
	url := os.Getenv("CARDKEY_LIVE_URL")
	if url == "" {
		t.Skip("CARDKEY_LIVE_URL is not set: no service to test against")
	}
	o := Options{BaseURL: url, ProgramID: liveEnv(t, "PROGRAM_ID"), APISecret: liveEnv(t, "API_SECRET"), LegacySecret: liveEnv(t, "LEGACY_SECRET"), RetryDelay: 10 * time.Millisecond}
	for _, e := range edit {
		e(&o)
	}
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func liveKeys(t *testing.T) map[string]string {
	var keys map[string]string
	if err := json.Unmarshal([]byte(liveEnv(t, "RESPONSE_KEYS")), &keys); err != nil || len(keys) == 0 {
		t.Fatalf("CARDKEY_RESPONSE_KEYS: %v", err)
	}
	return keys
}

func pinned(t *testing.T) func(*Options) {
	keys := liveKeys(t)
	return func(o *Options) { o.ResponseKeys = keys }
}

func TestLiveCardLoginsOfEveryFamily(t *testing.T) {
	c := liveClient(t, pinned(t))
	card := liveEnv(t, "CARD_SDK")
	login := c.CardLogin(ctx, card, "go-sdk-pc")
	if !login.Success || login.Code != 0 || login.HTTPStatus != 200 || login.Data.Code != card || login.Data.MachineCode != "go-sdk-pc" || login.Data.Statecode != "active" {
		t.Fatalf("SDK login %+v", login)
	}
	if !liveToken.MatchString(login.Data.SessionToken) || !liveToken.MatchString(login.Data.Token) || !liveTimestamp.MatchString(login.Data.SessionExpiresAt) || login.Data.HeartbeatIntervalSeconds != 60 {
		t.Fatalf("SDK login data %+v", login.Data)
	}
	beat := c.CardHeartbeat(ctx)
	if !beat.Success || beat.Data.CardID != login.Data.ID || beat.Data.ServerTime == 0 {
		t.Fatalf("heartbeat %+v", beat)
	}
	if r := c.UserHeartbeat(ctx); r.Code != CodeNoSession {
		t.Fatalf("user heartbeat on a card session %+v", r)
	}

	if v3 := c.V3CardLogin(ctx, liveEnv(t, "CARD_V3"), "go-v3-pc"); !v3.Success || v3.Code != 0 || !liveToken.MatchString(v3.Data.Token) || v3.Data.SessionToken != "" {
		t.Fatalf("V3 %+v", v3)
	}
	connectCard := liveEnv(t, "CARD_CONNECT")
	if connect := c.ConnectLogin(ctx, connectCard, "go-connect-pc", FreshNonce); !connect.Success || connect.Code != 1 || !liveToken.MatchString(connect.Data.Token) {
		t.Fatalf("Connect %+v", connect)
	}
	nonce := "go-" + NewNonce()
	if r := c.ConnectLogin(ctx, connectCard, "go-connect-pc", OwnNonce(nonce)); !r.Success {
		t.Fatalf("Connect with a nonce of ours %+v", r)
	}
	if replay := c.ConnectLogin(ctx, connectCard, "go-connect-pc", OwnNonce(nonce)); replay.Success || replay.Code != CodeNonceReplayed || replay.HTTPStatus != 409 {
		t.Fatalf("Connect replay %+v", replay)
	}
	legacy, _ := c.Legacy()
	legacyCard := liveEnv(t, "CARD_LEGACY")
	if r := legacy.CardLogin(ctx, legacyCard, "go-legacy-pc"); !r.Success || r.Code != 1 || r.Data.MachineCode != "go-legacy-pc" {
		t.Fatalf("legacy login %+v", r)
	}
	if r := legacy.Unbind(ctx, legacyCard, "go-legacy-pc"); !r.Success || r.Data.UnbindCount != 1 {
		t.Fatalf("legacy unbind %+v", r)
	}
	if r := legacy.Unbind(ctx, legacyCard, "go-legacy-pc"); r.Success || r.Code != CodeUnbindRefused {
		t.Fatalf("legacy unbind again %+v", r)
	}
}

func TestLiveRefusalsAreFailuresWithTheirCodes(t *testing.T) {
	c := liveClient(t, pinned(t))
	refused := c.CardLogin(ctx, "NO-SUCH-CARD-KEY", "go-sdk-pc")
	if refused.Success || refused.Code != CodeCardInvalid || refused.HTTPStatus != 200 || refused.Message == "" || len(refused.RequestID) != 32 {
		t.Fatalf("%+v", refused)
	}
	legacy, _ := c.Legacy()
	for name, code := range map[string]int{
		"V3":      c.V3CardLogin(ctx, "NO-SUCH-CARD-KEY", "m").Code,
		"Connect": c.ConnectLogin(ctx, "NO-SUCH-CARD-KEY", "m", FreshNonce).Code,
		"legacy":  legacy.CardLogin(ctx, "NO-SUCH-CARD-KEY", "m").Code,
	} {
		if code != CodeCardInvalid {
			t.Errorf("%s: code %d", name, code)
		}
	}
	if r := liveClient(t, func(o *Options) { o.APISecret = "not-the-secret" }).CardLogin(ctx, liveEnv(t, "CARD_SDK"), "m"); r.Code != CodeSignatureInvalid || r.HTTPStatus != 401 {
		t.Fatalf("wrong secret %+v", r)
	}
	// A signed refusal is believed as a refusal: the card allows one device.
	pinnedCard := liveEnv(t, "CARD_PINNED")
	if r := c.CardLogin(ctx, pinnedCard, "go-pinned-pc"); !r.Success {
		t.Fatalf("first device %+v", r)
	}
	if r := c.CardLogin(ctx, pinnedCard, "go-other-pc"); r.Success || r.Code != CodeDeviceLimitReached {
		t.Fatalf("a second device %+v", r)
	}
}

func TestLiveHeartbeatLoopEndsWhenTheOwnerRevokesTheSession(t *testing.T) {
	// Without pinned keys: the service answers a revoked session's heartbeat unsigned (it no longer
	// knows the program), which a pinned client takes for untrusted and reports to OnError.
	c := liveClient(t)
	login := c.CardLogin(ctx, liveEnv(t, "CARD_LOOP"), "go-loop-pc")
	if !login.Success {
		t.Fatalf("%+v", login)
	}
	beats, errs := make(chan Result[HeartbeatData], 100), make(chan Result[HeartbeatData], 1000)
	loop, err := c.StartHeartbeat(ctx, HeartbeatOptions{
		Interval: 50 * time.Millisecond,
		OnBeat:   func(r Result[HeartbeatData]) { beats <- r },
		OnError:  func(r Result[HeartbeatData]) { errs <- r },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer loop.Stop()
	for i := 0; i < 2; i++ {
		select {
		case <-beats:
		case <-time.After(10 * time.Second):
			t.Fatal("no heartbeat succeeded")
		}
	}
	revokeCardSessions(t, login.Data.ID)
	select {
	case ended := <-loop.Ended():
		if ended.Code != CodeSessionInvalid || ended.HTTPStatus != 401 {
			t.Fatalf("ended %+v", ended)
		}
		if ended.EndedBy != "" && ended.EndedBy != "forced_offline" {
			t.Fatalf("ended_by %q", ended.EndedBy)
		}
		t.Logf("session ended: %s (ended_by %q)", ended.Message, ended.EndedBy)
	case <-time.After(10 * time.Second):
		select {
		case r := <-errs:
			t.Fatalf("the end was not reported; a beat failed with %d %s", r.Code, r.Message)
		default:
			t.Fatal("the end was not reported")
		}
	}
	<-loop.Done()
	if _, held := c.Session(); held {
		t.Fatal("the revoked session is still held")
	}
}

func revokeCardSessions(t *testing.T, cardID int64) {
	body, _ := json.Marshal(map[string]int64{"card_id": cardID})
	req, _ := http.NewRequest("POST", os.Getenv("CARDKEY_LIVE_URL")+"/admin/v1/projects/"+liveEnv(t, "PROJECT_ID")+"/sessions/revoke", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+liveEnv(t, "ADMIN_TOKEN"))
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("revoke: %v %v", err, res)
	}
	res.Body.Close()
}

func TestLiveProgramUserFlowAndVersionCheck(t *testing.T) {
	c := liveClient(t, pinned(t))
	fresh := "go." + NewNonce()[:10]
	if r := c.UserRegister(ctx, fresh, "pass-word-1", "go-user-pc"); !r.Success || r.Data.Username != fresh || r.Data.Status != "active" {
		t.Fatalf("register %+v", r)
	}
	username, password := liveEnv(t, "USER_NAME"), liveEnv(t, "USER_PASSWORD")
	if r := c.UserRegister(ctx, username, "pass-word-1", "go-user-pc"); r.Code != CodeUsernameTaken {
		t.Fatalf("taken %+v", r)
	}
	if r := c.UserLogin(ctx, username, "wrong-password", "go-user-pc"); r.Code != CodeBadCredentials {
		t.Fatalf("bad credentials %+v", r)
	}
	login := c.UserLogin(ctx, username, password, "go-user-pc")
	if !login.Success || login.Data.Profile.Username != username || login.Data.MachineID != "go-user-pc" {
		t.Fatalf("login %+v", login)
	}
	if beat := c.UserHeartbeat(ctx); !beat.Success || beat.Data.UserID != login.Data.Profile.UserID {
		t.Fatalf("user heartbeat %+v", beat)
	}
	if r := c.CardHeartbeat(ctx); r.Code != CodeNoSession {
		t.Fatalf("card heartbeat on a user session %+v", r)
	}
	older := c.CheckVersion(ctx, "1.1.0")
	if !older.Success || older.Data.LatestVersion == nil || *older.Data.LatestVersion != "1.2.0" || !older.Data.UpdateAvailable || !older.Data.ForceUpdate {
		t.Fatalf("version %+v", older)
	}
	if bad := c.CheckVersion(ctx, "not a version"); bad.Code != CodeBadRequest || bad.HTTPStatus != 400 {
		t.Fatalf("bad version %+v", bad)
	}
}

func TestLiveSelfServiceInfoTopupAndUnbind(t *testing.T) {
	c := liveClient(t, pinned(t))
	card := liveEnv(t, "CARD_SELF")
	if r := c.CardLogin(ctx, card, "go-self-pc"); !r.Success {
		t.Fatalf("%+v", r)
	}
	info := c.CardInfo(ctx, card)
	if !info.Success || info.Data.Status != "active" || len(info.Data.Devices) != 1 || info.Data.Devices[0].MachineCode != "go-self-pc" || !info.Data.Unbind.Enabled {
		t.Fatalf("info %+v", info)
	}
	topup := c.CardTopup(ctx, card, liveEnv(t, "CARD_TOPUP"))
	if !topup.Success || topup.Data.ExpiresAt <= *info.Data.ExpiresAt {
		t.Fatalf("top-up %+v after %v", topup, *info.Data.ExpiresAt)
	}
	if again := c.CardTopup(ctx, card, liveEnv(t, "CARD_TOPUP")); again.Success || (again.Code != CodeTopupRefused && again.Code != CodeCardInvalid) {
		t.Fatalf("a consumed top-up card %+v", again)
	}
	if r := c.CardUnbind(ctx, card, "go-self-pc"); !r.Success || r.Code != 1 || r.Data.UnbindCount != 1 {
		t.Fatalf("unbind %+v", r)
	}
}

func TestLiveTrialCardBoundToThisDevice(t *testing.T) {
	c := liveClient(t, pinned(t))
	machine := fmt.Sprintf("go-trial-%d", time.Now().UnixNano())
	trial := c.CardTrial(ctx, machine)
	if !trial.Success || !trial.Trial || trial.Data.MachineCode != machine || strings.Join(trial.Features, ",") != "trial" {
		t.Fatalf("trial %+v", trial)
	}
	if again := c.CardTrial(ctx, machine); !again.Success || again.Data.Code != trial.Data.Code {
		t.Fatalf("a repeat %+v", again)
	}
	login := c.CardLogin(ctx, trial.Data.Code, machine)
	if !login.Success || !login.Trial || !login.Data.Trial {
		t.Fatalf("login %+v", login)
	}
	if beat := c.CardHeartbeat(ctx); !beat.Success || !beat.Data.Trial {
		t.Fatalf("heartbeat %+v", beat)
	}
}

func TestLiveOfflineLicence(t *testing.T) {
	c := liveClient(t, pinned(t))
	card := liveEnv(t, "CARD_PINNED")
	if r := c.CardLogin(ctx, card, "go-pinned-pc"); !r.Success {
		t.Fatalf("%+v", r)
	}
	checkout := c.CardCheckout(ctx, card, "go-pinned-pc", 10*time.Minute)
	if !checkout.Success || checkout.Data.Licence == "" || checkout.Data.ValidUntil <= time.Now().Unix() {
		t.Fatalf("checkout %+v", checkout)
	}
	check := c.CheckLicence(checkout.Data.Licence, card, "go-pinned-pc")
	if !check.Valid || check.Payload.ProgramID != liveEnv(t, "PROGRAM_ID") || check.Payload.MachineID != "go-pinned-pc" {
		t.Fatalf("licence %+v", check)
	}
	if other := c.CheckLicence(checkout.Data.Licence, card, "another-pc"); other.Valid {
		t.Fatal("a licence valid on another machine")
	}
	if foreign := liveClient(t, func(o *Options) { o.ResponseKeys = foreignKeys }).CheckLicence(checkout.Data.Licence, card, "go-pinned-pc"); foreign.Valid {
		t.Fatal("a licence valid under another program's key")
	}
}

// tamperingProxy forwards to the service and hands back its answer with one byte more in the
// body, the signature headers kept: what a proxy editing a genuine answer produces.
func tamperingProxy(t *testing.T) string {
	target := os.Getenv("CARDKEY_LIVE_URL")
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		forward, _ := http.NewRequestWithContext(r.Context(), r.Method, target+r.URL.RequestURI(), bytes.NewReader(body))
		forward.Header = r.Header.Clone()
		res, err := http.DefaultTransport.RoundTrip(forward)
		if err != nil {
			w.WriteHeader(502)
			return
		}
		defer res.Body.Close()
		answer, _ := io.ReadAll(res.Body)
		for name, values := range res.Header {
			if name != "Content-Length" {
				w.Header()[name] = values
			}
		}
		w.WriteHeader(res.StatusCode)
		_, _ = w.Write(append(bytes.TrimSuffix(answer, []byte("}")), []byte(" }")...))
	}))
	t.Cleanup(proxy.Close)
	return proxy.URL
}

func TestLiveTamperedForeignAndRelayedAnswersAreRefused(t *testing.T) {
	keys := liveKeys(t)
	card := liveEnv(t, "CARD_PINNED")
	genuine := liveClient(t, pinned(t))
	if r := genuine.CardLogin(ctx, card, "go-pinned-pc"); !r.Success {
		t.Fatalf("genuine %+v", r)
	}
	tampered := liveClient(t, func(o *Options) { o.BaseURL = tamperingProxy(t); o.ResponseKeys = keys })
	for name, r := range map[string]Result[CardData]{
		"SDK": tampered.CardLogin(ctx, card, "go-pinned-pc"),
		"V3":  tampered.V3CardLogin(ctx, card, "go-pinned-pc"),
	} {
		if r.Success || r.Code != CodeUntrustedResponse || !strings.Contains(r.Message, "does not verify") {
			t.Errorf("tampered %s: %+v", name, r)
		}
	}
	if _, held := tampered.Session(); held {
		t.Error("a tampered login holds a session")
	}
	if r := liveClient(t, func(o *Options) { o.ResponseKeys = foreignKeys }).CardLogin(ctx, card, "go-pinned-pc"); r.Success || r.Code != CodeUntrustedResponse {
		t.Errorf("foreign key %+v", r)
	}

	// The relay of issue 33 sends the service a valid card of its own instead of the typed one.
	typed, machine := liveEnv(t, "RELAY_TYPED_KEY"), liveEnv(t, "RELAY_MACHINE")
	relayed := liveClient(t, func(o *Options) { o.BaseURL = liveEnv(t, "RELAY_URL"); o.ResponseKeys = keys })
	legacy, _ := relayed.Legacy()
	results := []Result[CardData]{
		relayed.ConnectLogin(ctx, typed, machine, FreshNonce),
		legacy.CardLogin(ctx, typed, machine),
		relayed.V3CardLogin(ctx, typed, machine),
		relayed.CardLogin(ctx, typed, machine),
	}
	for i, r := range results {
		if r.Success || r.Code != CodeUntrustedResponse || r.Message != "Untrusted answer: the answer signature does not verify" {
			t.Errorf("relayed login %d: %+v", i, r)
		}
	}
	direct := liveClient(t, pinned(t))
	if r := direct.CardLogin(ctx, liveEnv(t, "CARD_RELAY_GENUINE"), machine); !r.Success {
		t.Fatalf("%+v", r)
	}
	session, _ := direct.Session()
	_ = relayed.RestoreSession(session)
	beat := relayed.CardHeartbeat(ctx)
	if beat.Success || beat.Code != CodeUntrustedResponse || beat.Message != "Untrusted answer: it is for another card than the one sent" {
		t.Errorf("relayed heartbeat %+v", beat)
	}
	if kept, _ := relayed.Session(); kept != session {
		t.Error("an untrusted heartbeat renewed or ended the session")
	}
}

func TestLiveLegacyThroughEachTransportEncryption(t *testing.T) {
	var programs []struct {
		Mode         string `json:"mode"`
		ProgramID    string `json:"program_id"`
		APISecret    string `json:"api_secret"`
		LegacySecret string `json:"legacy_secret"`
		TransportKey string `json:"transport_key"`
		Card         string `json:"card"`
	}
	if err := json.Unmarshal([]byte(liveEnv(t, "SEALED_PROGRAMS")), &programs); err != nil || len(programs) != 3 {
		t.Fatalf("CARDKEY_SEALED_PROGRAMS: %v (%d)", err, len(programs))
	}
	for _, p := range programs {
		p := p
		c := liveClient(t, func(o *Options) {
			o.ProgramID, o.APISecret, o.LegacySecret = p.ProgramID, p.APISecret, p.LegacySecret
			o.LegacyTransport = &LegacyTransport{Mode: p.Mode, Key: p.TransportKey}
		})
		legacy, _ := c.Legacy()
		if r := legacy.CardLogin(context.Background(), p.Card, "go-sealed-pc"); !r.Success || r.Code != 1 || r.Data.MachineCode != "go-sealed-pc" {
			t.Errorf("%s login %+v", p.Mode, r)
		}
		if r := legacy.Unbind(context.Background(), p.Card, "go-sealed-pc"); !r.Success || r.Data.UnbindCount != 1 {
			t.Errorf("%s unbind %+v", p.Mode, r)
		}
	}
}
