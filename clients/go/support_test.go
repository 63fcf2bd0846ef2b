package cardkey

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The repository's vector file, which the service's, the TypeScript and the Python tests check too.
var vectorsPath = filepath.Join("..", "..", "sdk", "vectors", "signing-vectors.json")

type vectors struct {
	HMAC []struct {
		Name, Secret, Method, Path, Timestamp, Nonce, Body, Input, Signature string
	} `json:"hmac"`
	MD5 []struct {
		Name, Secret, Input, Sign string
		Fields                    map[string]string
	} `json:"md5"`
	Ed25519 struct {
		Seed        string           `json:"seed"`
		PublicKey   string           `json:"public_key"`
		PublicHex   string           `json:"public_key_hex"`
		Kid         string           `json:"kid"`
		Responses   []responseVector `json:"responses"`
		ResponsesV1 []responseVector `json:"responses_v1"`
		Licences    []struct {
			Name, CardKey, Licence string
			Payload                map[string]any
		} `json:"licences"`
	} `json:"ed25519"`
	Transport struct {
		AES256Block struct {
			KeyHex        string `json:"key_hex"`
			PlaintextHex  string `json:"plaintext_hex"`
			CiphertextHex string `json:"ciphertext_hex"`
		} `json:"aes256_block"`
		RC4    []transportVector `json:"rc4"`
		AES    []transportVector `json:"aes"`
		AESGCM []transportVector `json:"aes-gcm"`
	} `json:"transport"`
	MachineCode struct {
		Cases []struct {
			Name      string `json:"name"`
			ProgramID string `json:"program_id"`
			RawID     string `json:"raw_id"`
			Code      string `json:"code"`
		} `json:"cases"`
	} `json:"machine_code"`
}

type responseVector struct {
	Name, Method, Path, Nonce, Timestamp, Request, Body, Input, Signature string
	Status                                                                int
	RequestDigest                                                         string `json:"request_digest"`
}

type transportVector struct {
	Name, Key, Plaintext, Data string
	IVHex                      string `json:"iv_hex"`
}

func loadVectors(t *testing.T) vectors {
	t.Helper()
	raw, err := os.ReadFile(vectorsPath)
	if err != nil {
		t.Fatalf("the shared vectors: %v", err)
	}
	var v vectors
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("the shared vectors: %v", err)
	}
	return v
}

// testKey is the RFC 8032 key of the vectors: it signs the fake service's answers.
func testKey(t *testing.T) (ed25519.PrivateKey, map[string]string) {
	v := loadVectors(t)
	seed, _ := hex.DecodeString(v.Ed25519.Seed)
	return ed25519.NewKeyFromSeed(seed), map[string]string{v.Ed25519.Kid: v.Ed25519.PublicKey}
}

// seen is a request the fake service received.
type seen struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

func (s seen) form() url.Values {
	values, _ := url.ParseQuery(string(s.Body))
	return values
}

func (s seen) json() map[string]any {
	var out map[string]any
	_ = json.Unmarshal(s.Body, &out)
	return out
}

// reply is one scripted answer: JSON from Value unless Text is set.
type reply struct {
	Status int
	Value  any
	Text   string
	Header map[string]string
	Hang   time.Duration
	Drop   bool
}

// fakeService answers from a script, one reply per request (the last one repeated), and records every request.
type fakeService struct {
	*httptest.Server
	mu     sync.Mutex
	seen   []seen
	script []func(seen) reply
}

func newService(t *testing.T, script ...func(seen) reply) *fakeService {
	f := &fakeService{script: script}
	f.Server = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.Close)
	return f
}

func always(r reply) func(seen) reply { return func(seen) reply { return r } }

func (f *fakeService) requests() []seen {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seen(nil), f.seen...)
}

func (f *fakeService) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s := seen{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	f.mu.Lock()
	f.seen = append(f.seen, s)
	i := len(f.seen) - 1
	if i >= len(f.script) {
		i = len(f.script) - 1
	}
	step := f.script[i]
	f.mu.Unlock()
	answer := step(s)
	if answer.Hang > 0 {
		select {
		case <-time.After(answer.Hang):
		case <-r.Context().Done():
		}
		return
	}
	if answer.Drop {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
		return
	}
	payload := []byte(answer.Text)
	contentType := "text/html"
	if answer.Text == "" && answer.Value != nil {
		payload, _ = json.Marshal(answer.Value)
		contentType = "application/json"
	}
	w.Header().Set("Content-Type", contentType)
	for k, v := range answer.Header {
		w.Header().Set(k, v)
	}
	status := answer.Status
	if status == 0 {
		status = 200
	}
	w.WriteHeader(status)
	_, _ = w.Write(payload)
}

// signedReply signs an answer as the service does (v2) over the request it answers: the nonce of
// the header (V3, SDK, heartbeats) or of the form (Connect, legacy), and the bytes received.
func signedReply(key ed25519.PrivateKey, kid string, status int, value any) func(seen) reply {
	return func(s seen) reply {
		body, _ := json.Marshal(value)
		nonce := s.Header.Get(NonceHeader)
		if nonce == "" {
			nonce = s.form().Get("nonce")
		}
		stamp := strconv.FormatInt(time.Now().Unix(), 10)
		message := ResponseSigningInput("POST", s.Path, nonce, s.Body, stamp, status, body)
		return reply{Status: status, Text: string(body), Header: map[string]string{
			"Content-Type":          "application/json",
			ResponseTimestampHeader: stamp,
			ResponseKeyHeader:       kid,
			ResponseVersionHeader:   "2",
			ResponseSignatureHeader: base64.RawURLEncoding.EncodeToString(ed25519.Sign(key, message)),
		}}
	}
}

func standardOK(data map[string]any, top ...any) map[string]any {
	out := map[string]any{"code": 0, "success": true, "msg": "ok", "data": data, "request_id": "r1"}
	for i := 0; i+1 < len(top); i += 2 {
		out[top[i].(string)] = top[i+1]
	}
	return out
}

func standardFailure(code int) map[string]any {
	return map[string]any{"code": code, "success": false, "msg": "failure " + strconv.Itoa(code), "request_id": "r1"}
}

// cardSession is the data of an SDK card login for card CK on PC-1.
func cardSession() map[string]any {
	return map[string]any{
		"id": 7, "code": "CK", "machine_code": "PC-1", "expires_at": "2030-01-01 00:00:00",
		"session_token": "session-token-0123456789", "session_expires_at": "2030-01-01 00:10:00", "heartbeat_interval_seconds": 60,
	}
}

func clientFor(t *testing.T, baseURL string, edit ...func(*Options)) *Client {
	t.Helper()
	o := Options{BaseURL: baseURL, ProgramID: "48213907", APISecret: "sk_test_secret", LegacySecret: "lg_test_secret", RetryDelay: time.Millisecond, Timeout: 2 * time.Second}
	for _, e := range edit {
		e(&o)
	}
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}
