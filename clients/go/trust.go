package cardkey

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The headers of a signed answer (docs/protocol.md §6.2) and the only version believed.
const (
	ResponseTimestampHeader = "X-Svc-Response-Timestamp"
	ResponseKeyHeader       = "X-Svc-Response-Key"
	ResponseSignatureHeader = "X-Svc-Response-Signature"
	ResponseVersionHeader   = "X-Svc-Response-Version"
	// ResponseSignatureVersion is decisions §17's string; v1 did not bind the request and is refused.
	ResponseSignatureVersion = "2"
)

var unixSeconds = regexp.MustCompile(`^[0-9]{1,12}$`)

// SignedAnswer is what a signature is checked over: this client's request and the answer as received.
type SignedAnswer struct {
	Method, Path string
	Nonce        string // the X-Svc-Nonce or nonce field sent; empty when none travelled in clear
	Sent         []byte // what REQUEST_DIGEST hashes: RequestDigestInput of the request
	Status       int
	Header       func(name string) string
	Body         []byte
}

// RequestDigestInput is what REQUEST_DIGEST hashes: the body bytes sent, or for a GET or HEAD (or a
// request without a body) the raw query of target without the '?'.
func RequestDigestInput(method, target string, body []byte) []byte {
	upper := strings.ToUpper(method)
	if len(body) > 0 && upper != "GET" && upper != "HEAD" {
		return body
	}
	if i := strings.IndexByte(target, '?'); i >= 0 {
		return []byte(target[i+1:])
	}
	return []byte{}
}

// RequestDigest is the lowercase hex SHA-256 of what was sent.
func RequestDigest(sent []byte) string {
	sum := sha256.Sum256(sent)
	return hex.EncodeToString(sum[:])
}

// ResponseSigningInput is the bytes the service signs (decisions §17):
// "svc-response-v2\nMETHOD\nPATH\nNONCE\nTIMESTAMP\nSTATUS\nREQUEST_DIGEST\n" + body.
func ResponseSigningInput(method, path, nonce string, sent []byte, timestamp string, status int, body []byte) []byte {
	head := fmt.Sprintf("svc-response-v2\n%s\n%s\n%s\n%s\n%d\n%s\n", method, path, nonce, timestamp, status, RequestDigest(sent))
	return append([]byte(head), body...)
}

// PublicKey decodes a published key (base64url of the raw 32 bytes, padding optional).
func PublicKey(base64url string) (ed25519.PublicKey, error) {
	raw, err := decodeBase64URL(base64url)
	if err != nil || len(raw) != ed25519.PublicKeySize {
		return nil, errors.New("not an Ed25519 public key (base64url of 32 bytes)")
	}
	return ed25519.PublicKey(raw), nil
}

// AnswerDistrust says why an answer cannot be trusted, or "" when it can: it must carry the
// signing headers in version 2, name a pinned key (kid → base64url public key), be signed within
// maxSkew of now, and its signature must cover exactly this request and the answer.
func AnswerDistrust(a SignedAnswer, keys map[string]string, maxSkew time.Duration, now time.Time) string {
	timestamp, kid, signature := a.Header(ResponseTimestampHeader), a.Header(ResponseKeyHeader), a.Header(ResponseSignatureHeader)
	if timestamp == "" || kid == "" || signature == "" {
		return "the answer is not signed"
	}
	if version := a.Header(ResponseVersionHeader); version != ResponseSignatureVersion {
		if version == "" {
			version = "none"
		}
		return fmt.Sprintf("the answer is not signed in version %s (%s: %s)", ResponseSignatureVersion, ResponseVersionHeader, version)
	}
	encoded, pinned := keys[kid]
	if !pinned {
		return "the answer is signed with an unknown key " + kid
	}
	if !unixSeconds.MatchString(timestamp) {
		return "the answer signature is outside the time window"
	}
	signedAt, _ := strconv.ParseInt(timestamp, 10, 64)
	if math.Abs(float64(now.Unix()-signedAt)) > maxSkew.Seconds() {
		return "the answer signature is outside the time window"
	}
	key, err := PublicKey(encoded)
	sig, sigErr := decodeBase64URL(signature)
	message := ResponseSigningInput(a.Method, a.Path, a.Nonce, a.Sent, timestamp, a.Status, a.Body)
	if err != nil || sigErr != nil || len(sig) != ed25519.SignatureSize || !ed25519.Verify(key, message, sig) {
		return "the answer signature does not verify"
	}
	return ""
}

func decodeBase64URL(text string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(text, "="))
}

// named is a field of a success's data that must hold what this client sent (decisions §17).
type named struct {
	field    string
	value    any // string or int64
	what     string
	required bool // absent is a mismatch too
}

func cardNamed(machineID, cardKey string) []named {
	return []named{{"machine_code", machineID, "device", true}, {"code", cardKey, "card", false}}
}

// bindTo turns a success naming another device, card or session owner than this client's into
// UNTRUSTED_RESPONSE: a relay swapped them. The message names what differs, never the values.
func bindTo(r rawResult, expected []named) rawResult {
	if !r.Success {
		return r
	}
	for _, e := range expected {
		found := r.Fields[e.field]
		present := found != nil // JSON null counts as absent
		if (!present && e.required) || (present && !sameValue(found, e.value)) {
			return rawResult{
				Code:       CodeUntrustedResponse,
				Message:    "Untrusted answer: it is for another " + e.what + " than the one sent",
				RequestID:  r.RequestID,
				HTTPStatus: r.HTTPStatus,
				Body:       r.Body,
			}
		}
	}
	return r
}

func sameValue(found, want any) bool {
	switch w := want.(type) {
	case string:
		s, ok := found.(string)
		return ok && s == w
	case int64:
		n, ok := integer(found)
		return ok && n == w
	}
	return false
}
