package cardkey

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"strings"
	"sync"
	"time"
)

const (
	formType = "application/x-www-form-urlencoded"
	jsonType = "application/json"
)

// Client is one program's client, safe for concurrent use. It holds at most one SDK session: a
// new SDK login replaces it.
type Client struct {
	baseURL, programID  string
	apiSecret           string
	legacySecret        string
	connectNames        map[string]string
	timeout, retryDelay time.Duration
	retries             int
	responseKeys        map[string]string // nil: answers are not checked; empty: nothing is trusted
	maxSkew             time.Duration
	legacyTransport     *LegacyTransport
	http                *http.Client
	logger              *log.Logger
	now                 func() time.Time

	mu      sync.Mutex
	current *Session
	loop    *HeartbeatLoop
}

// New checks the options and makes a client; an error only for a programming error.
func New(o Options) (*Client, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	retries := o.Retries
	switch {
	case retries == 0:
		retries = DefaultRetries
	case retries == NoRetries:
		retries = 0
	}
	httpClient := &http.Client{}
	if o.HTTPClient != nil {
		copied := *o.HTTPClient
		httpClient = &copied
	}
	// The service never redirects a client route: a redirect is an answer to judge, not to follow.
	httpClient.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	logger := o.Logger
	if logger == nil {
		logger = log.Default()
	}
	c := &Client{
		baseURL:         strings.TrimRight(o.BaseURL, "/"),
		programID:       o.ProgramID,
		apiSecret:       o.APISecret,
		legacySecret:    o.LegacySecret,
		connectNames:    copyMap(o.ConnectFieldNames),
		timeout:         orDefault(o.Timeout, DefaultTimeout),
		retryDelay:      orDefault(o.RetryDelay, DefaultRetryDelay),
		retries:         retries,
		maxSkew:         orDefault(o.ResponseMaxSkew, DefaultMaxSkew),
		legacyTransport: o.LegacyTransport,
		http:            httpClient,
		logger:          logger,
		now:             time.Now,
	}
	if o.ResponseKeys != nil {
		c.responseKeys = copyMap(o.ResponseKeys)
	}
	return c, nil
}

// ProgramID is the public program ID this client speaks for.
func (c *Client) ProgramID() string { return c.programID }

// String never shows the secrets or the session token.
func (c *Client) String() string {
	return fmt.Sprintf("cardkey.Client{BaseURL: %q, ProgramID: %q}", c.baseURL, c.programID)
}

// GoString is String, for %#v.
func (c *Client) GoString() string { return c.String() }

// Session is a copy of the session held after an SDK card or user login; false when none.
func (c *Client) Session() (Session, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.current == nil {
		return Session{}, false
	}
	return *c.current, true
}

// RestoreSession takes up a session kept from an earlier run; the next heartbeat tells whether the
// service still accepts it (if not, the session is cleared as usual).
func (c *Client) RestoreSession(s Session) error {
	if s.Type != CardSession && s.Type != UserSession {
		return errors.New("cardkey: Session.Type must be card or app_user")
	}
	if s.Token == "" || s.MachineID == "" {
		return errors.New("cardkey: Session.Token and Session.MachineID are required")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.current = &s
	return nil
}

// ClearSession forgets the session and stops the heartbeat loop (the session itself simply expires).
func (c *Client) ClearSession() {
	c.mu.Lock()
	loop := c.loop
	c.current, c.loop = nil, nil
	c.mu.Unlock()
	if loop != nil {
		loop.Stop()
	}
}

// do sends a call and judges its answer: with pinned keys its signature first, then the family's rule.
func (c *Client) do(ctx context.Context, family Family, k call, successCode int) rawResult {
	s, failed := c.send(ctx, k)
	if failed != nil {
		return *failed
	}
	if c.responseKeys != nil {
		distrust := AnswerDistrust(SignedAnswer{
			Method: k.method, Path: k.path, Nonce: s.nonce, Sent: s.digest,
			Status: s.answer.status, Header: s.answer.header.Get, Body: s.answer.body,
		}, c.responseKeys, c.maxSkew, c.now())
		if distrust != "" {
			return rawResult{Code: CodeUntrustedResponse, Message: "Untrusted answer: " + distrust, HTTPStatus: s.answer.status, Body: s.answer.body}
		}
	}
	return judge(family, s.answer, c.connectNames, successCode)
}

// signed builds an attempt of a V3 or SDK call: the three HMAC headers over these exact bytes.
func (c *Client) signed(path, contentType string, body []byte) request {
	timestamp := fmt.Sprint(c.now().Unix())
	nonce := NewNonce()
	header := http.Header{}
	header.Set("Content-Type", contentType)
	header.Set("Accept", jsonType)
	header.Set(TimestampHeader, timestamp)
	header.Set(NonceHeader, nonce)
	header.Set(SignatureHeader, HMACSignature(c.apiSecret, "POST", path, timestamp, nonce, body))
	return request{header: header, body: body, nonce: nonce}
}

func plainHeader(contentType string) http.Header {
	header := http.Header{}
	header.Set("Content-Type", contentType)
	header.Set("Accept", jsonType)
	return header
}

func copyMap(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
