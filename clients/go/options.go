package cardkey

import (
	"errors"
	"fmt"
	"log"
	"net/http"
	"strings"
	"time"
)

// Version of this client, sent in its User-Agent.
const Version = "0.1.0"

// Defaults of Options.
const (
	DefaultTimeout    = 10 * time.Second
	DefaultRetries    = 2
	DefaultRetryDelay = 250 * time.Millisecond
	DefaultMaxSkew    = 300 * time.Second
)

// NoRetries as Options.Retries: a missing answer is reported at once.
const NoRetries = -1

// Options configure a Client. BaseURL, ProgramID and APISecret are required.
type Options struct {
	// BaseURL is the service's address, e.g. https://licence.example.com (no route path).
	BaseURL string
	// ProgramID is the public 8-digit program ID, never the internal project key.
	ProgramID string
	// APISecret signs V3 and SDK requests.
	APISecret string
	// LegacySecret signs the legacy routes (MD5); needed only by Client.Legacy.
	LegacySecret string
	// ConnectFieldNames maps Connect's default field names to this program's customized ones
	// ({"status": "ok", "token": "licence"}), when its author renamed them.
	ConnectFieldNames map[string]string
	// Timeout bounds one attempt (connect, send, read); default 10 s.
	Timeout time.Duration
	// Retries is how many further attempts an idempotent call gets after a missing answer; 0 means
	// DefaultRetries, NoRetries none. Business refusals are never retried.
	Retries int
	// RetryDelay is the first backoff, doubled each attempt (capped at 8 times), with jitter; default 250 ms.
	RetryDelay time.Duration
	// ResponseKeys are the program's pinned response-signing keys (kid → base64url public key, from
	// GET /admin/v1/projects/{id}/signing-keys). When set (even empty), every answer must carry a
	// valid v2 signature of one of them over this request, else it is CodeUntrustedResponse.
	ResponseKeys map[string]string
	// ResponseMaxSkew is how far an answer's signing time may be from this clock; default 300 s.
	ResponseMaxSkew time.Duration
	// LegacyTransport is the project's transport encryption when it is not none: Client.Legacy then
	// goes through the aggregate entry /api/app, encrypted both ways.
	LegacyTransport *LegacyTransport
	// HTTPClient sends the requests (a proxy, custom TLS roots); its redirects are never followed
	// and its own Timeout is left as it is. Default: a client of its own.
	HTTPClient *http.Client
	// Logger receives the panics of heartbeat callbacks; never secrets. Default: log.Default().
	Logger *log.Logger
}

// String never shows the secrets, so logging the options is safe.
func (o Options) String() string {
	return fmt.Sprintf("cardkey.Options{BaseURL: %q, ProgramID: %q, APISecret: %s, LegacySecret: %s, pinned keys: %d}",
		o.BaseURL, o.ProgramID, redacted(o.APISecret), redacted(o.LegacySecret), len(o.ResponseKeys))
}

// GoString is String, for %#v.
func (o Options) GoString() string { return o.String() }

func redacted(secret string) string {
	if secret == "" {
		return "none"
	}
	return "[redacted]"
}

func (o Options) validate() error {
	lower := strings.ToLower(o.BaseURL)
	switch {
	case !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://"):
		return errors.New("cardkey: BaseURL must be an http or https address")
	case o.ProgramID == "":
		return errors.New("cardkey: ProgramID is required")
	case o.APISecret == "":
		return errors.New("cardkey: APISecret is required")
	case o.Timeout < 0 || o.RetryDelay < 0 || o.ResponseMaxSkew < 0 || o.Retries < NoRetries:
		return errors.New("cardkey: Timeout, Retries, RetryDelay and ResponseMaxSkew cannot be negative")
	}
	for kid, key := range o.ResponseKeys {
		if _, err := PublicKey(key); err != nil {
			return fmt.Errorf("cardkey: ResponseKeys[%q]: %v", kid, err)
		}
	}
	if t := o.LegacyTransport; t != nil {
		if err := t.validate(); err != nil {
			return err
		}
	}
	return nil
}

func orDefault(value, fallback time.Duration) time.Duration {
	if value == 0 {
		return fallback
	}
	return value
}
