package cardkey

import (
	"bytes"
	"context"
	"log"
	"sync"
	"testing"
	"time"
)

func beatOK(s seen) reply {
	return reply{Value: standardOK(map[string]any{"card_id": 7, "session_expires_at": "2030-01-01 00:20:00", "server_time": 1})}
}

func loggedIn(t *testing.T, script ...func(seen) reply) (*Client, *fakeService) {
	t.Helper()
	service := newService(t, append([]func(seen) reply{always(reply{Value: standardOK(cardSession())})}, script...)...)
	c := clientFor(t, service.URL)
	if r := c.CardLogin(ctx, "CK", "PC-1"); !r.Success {
		t.Fatalf("login %+v", r)
	}
	return c, service
}

type recorder struct {
	mu                 sync.Mutex
	beats, errs, ended []Result[HeartbeatData]
}

func (r *recorder) options(interval time.Duration) HeartbeatOptions {
	add := func(list *[]Result[HeartbeatData]) func(Result[HeartbeatData]) {
		return func(x Result[HeartbeatData]) { r.mu.Lock(); *list = append(*list, x); r.mu.Unlock() }
	}
	return HeartbeatOptions{Interval: interval, OnBeat: add(&r.beats), OnError: add(&r.errs), OnSessionEnded: add(&r.ended)}
}

func (r *recorder) counts() (int, int, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.beats), len(r.errs), len(r.ended)
}

func TestTheHeartbeatLoopStopsWhenItsContextIsCancelled(t *testing.T) {
	c, service := loggedIn(t, beatOK)
	loopCtx, cancel := context.WithCancel(ctx)
	rec := &recorder{}
	loop, err := c.StartHeartbeat(loopCtx, rec.options(10*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for beats, _, _ := rec.counts(); beats < 2 && time.Now().Before(deadline); beats, _, _ = rec.counts() {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	waitCtx, done := context.WithTimeout(ctx, 2*time.Second)
	defer done()
	if !loop.Wait(waitCtx) {
		t.Fatal("the loop did not stop on cancel")
	}
	if _, open := <-loop.Ended(); open {
		t.Fatal("Ended carried a value though the session did not end")
	}
	sent := len(service.requests())
	time.Sleep(50 * time.Millisecond)
	if len(service.requests()) != sent {
		t.Fatal("a beat after the loop stopped")
	}
	beats, errs, ended := rec.counts()
	session, held := c.Session()
	if beats < 2 || errs != 0 || ended != 0 || !held || session.ExpiresAt != "2030-01-01 00:20:00" {
		t.Fatalf("beats %d errors %d ended %d, session %v %v", beats, errs, ended, session, held)
	}
	req := service.requests()[1]
	if req.Path != "/api/v1/cards/heartbeat" || req.Header.Get("Authorization") != "Bearer session-token-0123456789" || req.Header.Get(NonceHeader) == "" {
		t.Fatalf("heartbeat sent %s %v", req.Path, req.Header)
	}
}

func TestAnEndedSessionIsReportedOnceWithWhyAndTheLoopStops(t *testing.T) {
	refusal := standardFailure(CodeSessionInvalid)
	refusal["data"] = map[string]any{"ended_by": "forced_offline", "ended_at": "2030-01-01 00:05:00"}
	c, service := loggedIn(t, beatOK, always(reply{Status: 401, Value: refusal}))
	rec := &recorder{}
	loop, _ := c.StartHeartbeat(ctx, rec.options(10*time.Millisecond))
	var ended Result[HeartbeatData]
	select {
	case ended = <-loop.Ended():
	case <-time.After(5 * time.Second):
		t.Fatal("no end reported")
	}
	<-loop.Done()
	if ended.Success || ended.Code != CodeSessionInvalid || ended.EndedBy != "forced_offline" || ended.EndedAt != "2030-01-01 00:05:00" || ended.HTTPStatus != 401 {
		t.Fatalf("ended %+v", ended)
	}
	if _, held := c.Session(); held {
		t.Fatal("the ended session is still held")
	}
	sent := len(service.requests())
	time.Sleep(50 * time.Millisecond)
	beats, errs, endedCount := rec.counts()
	if len(service.requests()) != sent || beats != 1 || errs != 0 || endedCount != 1 {
		t.Fatalf("requests %d→%d, beats %d errors %d ended %d", sent, len(service.requests()), beats, errs, endedCount)
	}
	if r := c.CardHeartbeat(ctx); r.Code != CodeNoSession {
		t.Fatalf("after the end: %+v", r)
	}
}

func TestOtherFailuresGoToOnErrorAndTheLoopGoesOn(t *testing.T) {
	c, _ := loggedIn(t, always(reply{Value: standardFailure(CodeInterfaceDisabled)}), beatOK)
	rec := &recorder{}
	loop, _ := c.StartHeartbeat(ctx, rec.options(10*time.Millisecond))
	defer loop.Stop()
	deadline := time.Now().Add(5 * time.Second)
	for beats, _, _ := rec.counts(); beats < 1 && time.Now().Before(deadline); beats, _, _ = rec.counts() {
		time.Sleep(5 * time.Millisecond)
	}
	if beats, errs, ended := rec.counts(); beats < 1 || errs != 1 || ended != 0 {
		t.Fatalf("beats %d errors %d ended %d", beats, errs, ended)
	}
}

func TestADirectHeartbeatThatMeetsTheEndStopsTheLoop(t *testing.T) {
	c, _ := loggedIn(t, always(reply{Status: 401, Value: standardFailure(CodeSessionTypeMismatch)}))
	rec := &recorder{}
	loop, _ := c.StartHeartbeat(ctx, rec.options(time.Hour))
	if r := c.CardHeartbeat(ctx); r.Code != CodeSessionTypeMismatch || r.EndedBy != "" {
		t.Fatalf("%+v", r)
	}
	select {
	case <-loop.Done():
	case <-time.After(2 * time.Second):
		t.Fatal("the loop goes on after its session ended")
	}
	if _, _, ended := rec.counts(); ended != 1 {
		t.Fatalf("ended reported %d times", ended)
	}
}

func TestAPanickingCallbackIsLoggedAndTheLoopGoesOn(t *testing.T) {
	var logged bytes.Buffer
	service := newService(t, always(reply{Value: standardOK(cardSession())}), beatOK)
	c := clientFor(t, service.URL, func(o *Options) { o.Logger = log.New(&logged, "", 0) })
	c.CardLogin(ctx, "CK", "PC-1")
	var mu sync.Mutex
	calls := 0
	loop, _ := c.StartHeartbeat(ctx, HeartbeatOptions{Interval: 10 * time.Millisecond, OnBeat: func(Result[HeartbeatData]) {
		mu.Lock()
		calls++
		mu.Unlock()
		panic("a bug in the caller")
	}})
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := calls
		mu.Unlock()
		if n >= 2 {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	c.ClearSession()
	<-loop.Done()
	mu.Lock()
	defer mu.Unlock()
	if calls < 2 || !bytes.Contains(logged.Bytes(), []byte("a heartbeat callback panicked")) {
		t.Fatalf("%d calls, log %q", calls, logged.String())
	}
}

func TestStartHeartbeatNeedsASessionAndAHeartbeatAnswerMustNameItsCard(t *testing.T) {
	if _, err := clientFor(t, "http://x").StartHeartbeat(ctx, HeartbeatOptions{}); err == nil {
		t.Fatal("a loop without a session")
	}
	c, _ := loggedIn(t, always(reply{Value: standardOK(map[string]any{"card_id": 99, "session_expires_at": "2031-01-01 00:00:00"})}))
	before, _ := c.Session()
	if r := c.CardHeartbeat(ctx); r.Success || r.Code != CodeUntrustedResponse {
		t.Fatalf("a heartbeat for another card: %+v", r)
	}
	if after, held := c.Session(); !held || after != before {
		t.Fatal("an untrusted heartbeat renewed or ended the session")
	}
}

func TestRestoreSessionGoesOnHeartbeating(t *testing.T) {
	service := newService(t, beatOK)
	c := clientFor(t, service.URL)
	if err := c.RestoreSession(Session{Type: "bogus", Token: "t", MachineID: "m"}); err == nil {
		t.Fatal("a session of no type accepted")
	}
	if err := c.RestoreSession(Session{Type: CardSession, Token: "kept-token", MachineID: "PC-1", CardID: 7}); err != nil {
		t.Fatal(err)
	}
	if r := c.CardHeartbeat(ctx); !r.Success || service.requests()[0].Header.Get("Authorization") != "Bearer kept-token" {
		t.Fatalf("%+v", r)
	}
}
