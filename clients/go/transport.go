package cardkey

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net"
	"net/http"
	"strings"
	"time"
)

// maxAnswerBytes bounds what is read of an answer: the service's are far smaller.
const maxAnswerBytes = 4 << 20

var userAgent = "cardkey-client-go/" + Version

// request is one attempt, built afresh (signed, with a new nonce) for each.
type request struct {
	header http.Header
	body   []byte
	nonce  string // the nonce the signed answer must cover; empty when none travels in clear
}

// call is one client call: its route, how to build an attempt, and whether it may be retried.
type call struct {
	method, path string
	build        func() request
	// idempotent: sending it twice has the effect of sending it once; only then is a missing answer retried.
	idempotent bool
}

// sent is an answer with the attempt that got it: the signed answer covers its nonce and bytes.
type sent struct {
	answer answer
	nonce  string
	digest []byte
}

// send makes the call's attempts: a missing answer or a gateway's non-JSON 502/503/504 of an
// idempotent call is tried again after a jittered, doubling backoff; any other answer, business
// refusals and RATE_LIMITED included, comes back as it is. Redirects are never followed.
func (c *Client) send(ctx context.Context, k call) (sent, *rawResult) {
	attempts := 1
	if k.idempotent {
		attempts += c.retries
	}
	lastError := "no attempt made"
	for attempt := 0; attempt < attempts; attempt++ {
		if attempt > 0 && !sleep(ctx, backoff(c.retryDelay, attempt)) {
			break
		}
		if ctx.Err() != nil {
			break
		}
		r := k.build()
		a, err := c.exchange(ctx, k.method, k.path, r)
		if err != nil {
			lastError = describe(err)
			continue
		}
		if isGatewayFailure(a) {
			lastError = fmt.Sprintf("HTTP %d from a gateway", a.status)
			continue
		}
		return sent{answer: a, nonce: r.nonce, digest: RequestDigestInput(k.method, k.path, r.body)}, nil
	}
	if ctx.Err() != nil {
		lastError = describe(ctx.Err())
	}
	return sent{}, &rawResult{Code: CodeNetworkError, Message: "The service could not be reached: " + lastError}
}

func (c *Client) exchange(ctx context.Context, method, path string, r request) (answer, error) {
	attemptCtx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(attemptCtx, method, c.baseURL+path, bytes.NewReader(r.body))
	if err != nil {
		return answer{}, err
	}
	req.Header = r.header.Clone()
	req.Header.Set("User-Agent", userAgent)
	res, err := c.http.Do(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxAnswerBytes))
	if err != nil {
		return answer{}, err
	}
	return answer{status: res.StatusCode, header: res.Header, body: body}, nil
}

func isGatewayFailure(a answer) bool {
	gateway := a.status == 502 || a.status == 503 || a.status == 504
	return gateway && !strings.Contains(a.header.Get("Content-Type"), "json")
}

func backoff(base time.Duration, attempt int) time.Duration {
	exponential := base << (attempt - 1)
	if limit := base * 8; exponential > limit || exponential <= 0 {
		exponential = limit
	}
	return exponential/2 + time.Duration(rand.Int63n(int64(exponential/2)+1))
}

// sleep waits d, or less when ctx ends; false when it ended.
func sleep(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// describe is a short reason for a missing answer; it never holds the request (no secrets, no body).
func describe(err error) string {
	var netErr net.Error
	switch {
	case errors.Is(err, context.Canceled):
		return "cancelled"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return "timed out"
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) && opErr.Err != nil {
		return opErr.Op + ": " + opErr.Err.Error()
	}
	return err.Error()
}
