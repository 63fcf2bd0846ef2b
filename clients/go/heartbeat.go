package cardkey

import (
	"context"
	"errors"
	"sync"
	"time"
)

// DefaultHeartbeatInterval is the rhythm when neither the options nor the login answer give one.
const DefaultHeartbeatInterval = 60 * time.Second

// HeartbeatOptions configure Client.StartHeartbeat. The callbacks run on the loop's goroutine
// (OnSessionEnded on that of a direct heartbeat call that met the end first); a callback that
// panics is logged and does not stop the loop.
type HeartbeatOptions struct {
	// Interval between beats; default the login answer's heartbeat_interval_seconds, else 60 s.
	Interval time.Duration
	// OnBeat receives each renewal.
	OnBeat func(Result[HeartbeatData])
	// OnError receives every other failure (network, quota...); the loop keeps its rhythm.
	OnError func(Result[HeartbeatData])
	// OnSessionEnded is called once when the session ends (SESSION_INVALID, SESSION_TYPE_MISMATCH;
	// EndedBy says why when the service tells): the session is already cleared. Leave the protected
	// functions and ask for a new login.
	OnSessionEnded func(Result[HeartbeatData])
}

// HeartbeatLoop beats the held session on its own goroutine until the session ends, Stop is
// called, the client clears its session or the context given to StartHeartbeat ends.
type HeartbeatLoop struct {
	options HeartbeatOptions
	logger  interface{ Printf(string, ...any) }
	cancel  context.CancelFunc
	done    chan struct{}
	ended   chan Result[HeartbeatData]
	once    sync.Once
	mu      sync.Mutex
	stopped bool
}

// StartHeartbeat heartbeats the held session every interval on a new goroutine. One loop per
// client: starting another stops the previous one. An error only when no session is held.
func (c *Client) StartHeartbeat(ctx context.Context, o HeartbeatOptions) (*HeartbeatLoop, error) {
	c.mu.Lock()
	if c.current == nil {
		c.mu.Unlock()
		return nil, errors.New("cardkey: StartHeartbeat needs a session: log in with CardLogin or UserLogin first")
	}
	if o.Interval <= 0 {
		o.Interval = time.Duration(c.current.HeartbeatIntervalSeconds) * time.Second
	}
	if o.Interval <= 0 {
		o.Interval = DefaultHeartbeatInterval
	}
	loopCtx, cancel := context.WithCancel(ctx)
	loop := &HeartbeatLoop{
		options: o, logger: c.logger, cancel: cancel,
		done: make(chan struct{}), ended: make(chan Result[HeartbeatData], 1),
	}
	previous := c.loop
	c.loop = loop
	c.mu.Unlock()
	if previous != nil {
		previous.Stop()
	}
	go loop.run(loopCtx, c)
	return loop, nil
}

// Stop stops the loop; a beat on the wire is abandoned and nothing is reported after it.
func (l *HeartbeatLoop) Stop() {
	l.mu.Lock()
	l.stopped = true
	l.mu.Unlock()
	l.cancel()
}

// Done is closed once the loop's goroutine has returned.
func (l *HeartbeatLoop) Done() <-chan struct{} { return l.done }

// Ended receives the answer that ended the session, once, then is closed; it is closed without a
// value when the loop stopped for another reason (Stop, ClearSession, the context).
func (l *HeartbeatLoop) Ended() <-chan Result[HeartbeatData] { return l.ended }

// Wait blocks until the loop has stopped or ctx ends; true when the loop has stopped.
func (l *HeartbeatLoop) Wait(ctx context.Context) bool {
	select {
	case <-l.done:
		return true
	case <-ctx.Done():
		return false
	}
}

func (l *HeartbeatLoop) run(ctx context.Context, c *Client) {
	defer close(l.done)
	defer l.finish(nil)
	ticker := time.NewTicker(l.options.Interval)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		kind, held := c.heldType()
		if !held {
			return
		}
		r := c.heartbeat(ctx, kind)
		if l.isStopped() || ctx.Err() != nil {
			return
		}
		switch {
		case !r.Success && SessionEnded(r.Code):
			return // c.heartbeat has ended the loop
		case r.Success:
			l.call(l.options.OnBeat, r)
		default:
			l.call(l.options.OnError, r)
		}
	}
}

// end is the session's end: stop, then tell the owner once.
func (l *HeartbeatLoop) end(r Result[HeartbeatData]) {
	if l.isStopped() {
		return
	}
	l.Stop()
	l.finish(&r)
}

func (l *HeartbeatLoop) finish(r *Result[HeartbeatData]) {
	l.once.Do(func() {
		if r != nil {
			l.ended <- *r
		}
		close(l.ended)
		if r != nil {
			l.call(l.options.OnSessionEnded, *r)
		}
	})
}

func (l *HeartbeatLoop) isStopped() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stopped
}

func (l *HeartbeatLoop) call(callback func(Result[HeartbeatData]), r Result[HeartbeatData]) {
	if callback == nil {
		return
	}
	defer func() {
		if recovered := recover(); recovered != nil {
			l.logger.Printf("cardkey: a heartbeat callback panicked: %v", recovered)
		}
	}()
	callback(r)
}

// heartbeat renews the held session of this kind, and clears it on an answer that ends it.
func (c *Client) heartbeat(ctx context.Context, kind SessionType) Result[HeartbeatData] {
	c.mu.Lock()
	session := c.current
	c.mu.Unlock()
	if session == nil || session.Type != kind {
		who := "card"
		if kind == UserSession {
			who = "user"
		}
		return Result[HeartbeatData]{Code: CodeNoSession, Message: "No " + who + " session: log in first"}
	}
	path, owner := "/api/v1/cards/heartbeat", named{"card_id", session.CardID, "card", true}
	if kind == UserSession {
		path, owner = "/api/v1/users/heartbeat", named{"user_id", session.UserID, "user", true}
	}
	body := jsonBody(field{"machine_id", session.MachineID})
	r := c.do(ctx, Standard, call{
		method: "POST", path: path, idempotent: true,
		build: func() request {
			// A nonce binds the signed answer to this heartbeat: an old answer cannot be replayed.
			header := plainHeader(jsonType)
			header.Set("Authorization", "Bearer "+session.Token)
			nonce := NewNonce()
			header.Set(NonceHeader, nonce)
			return request{header: header, body: body, nonce: nonce}
		},
	}, anyCode)
	// The token travels in a header, outside the signed digest: the answer must name this session's owner.
	if owner.value != int64(0) {
		r = bindTo(r, []named{owner})
	}
	out := typed[HeartbeatData](r)
	var endedLoop *HeartbeatLoop
	c.mu.Lock()
	if c.current == session {
		if out.Success && out.Data.SessionExpiresAt != "" {
			renewed := *session
			renewed.ExpiresAt = out.Data.SessionExpiresAt
			c.current = &renewed
		}
		if !out.Success && SessionEnded(out.Code) {
			c.current = nil
			endedLoop, c.loop = c.loop, nil
		}
	}
	c.mu.Unlock()
	if endedLoop != nil {
		endedLoop.end(out) // also when a direct call, not the loop, met the end
	}
	return out
}

func (c *Client) heldType() (SessionType, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.current == nil {
		return "", false
	}
	return c.current.Type, true
}

// hold keeps the session of a successful SDK login.
func (c *Client) hold(s Session) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.current = &s
}
