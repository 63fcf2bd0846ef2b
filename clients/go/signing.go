package cardkey

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
)

// The request headers of HMAC signing (docs/protocol.md §3).
const (
	TimestampHeader = "X-Svc-Timestamp"
	NonceHeader     = "X-Svc-Nonce"
	SignatureHeader = "X-Svc-Signature"
)

// HMACSigningInput is the string V3 and SDK requests sign: method, path, timestamp, nonce and the
// raw body, joined by LF with no trailing newline.
func HMACSigningInput(method, path, timestamp, nonce string, body []byte) []byte {
	head := strings.ToUpper(method) + "\n" + path + "\n" + timestamp + "\n" + nonce + "\n"
	return append([]byte(head), body...)
}

// HMACSignature is X-Svc-Signature: lowercase hex HMAC-SHA256 of the signing input under api_secret.
func HMACSignature(apiSecret, method, path, timestamp, nonce string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(apiSecret))
	mac.Write(HMACSigningInput(method, path, timestamp, nonce, body))
	return hex.EncodeToString(mac.Sum(nil))
}

// MD5SigningInput is the string the legacy routes sign: every non-empty field but sign, sorted by
// name in UTF-16 code-unit order (the service's order), written name=value with the raw value
// (never URL-encoded), joined by & and followed by &key= and the legacy_secret.
func MD5SigningInput(fields map[string]string, legacySecret string) string {
	names := make([]string, 0, len(fields))
	for name, value := range fields {
		if name != "sign" && value != "" {
			names = append(names, name)
		}
	}
	sort.Slice(names, func(i, j int) bool { return lessCodeUnits(names[i], names[j]) })
	var b strings.Builder
	for i, name := range names {
		if i > 0 {
			b.WriteByte('&')
		}
		b.WriteString(name + "=" + fields[name])
	}
	b.WriteString("&key=" + legacySecret)
	return b.String()
}

// MD5Sign is the legacy sign field: lowercase hex MD5 of the signing input.
func MD5Sign(fields map[string]string, legacySecret string) string {
	sum := md5.Sum([]byte(MD5SigningInput(fields, legacySecret)))
	return hex.EncodeToString(sum[:])
}

// md5Signed adds t (now, unless present) and sign to a copy of the fields.
func md5Signed(fields map[string]string, legacySecret string, now time.Time) map[string]string {
	out := make(map[string]string, len(fields)+2)
	out["t"] = strconv.FormatInt(now.Unix(), 10)
	for name, value := range fields {
		out[name] = value
	}
	out["sign"] = MD5Sign(out, legacySecret)
	return out
}

// NewNonce is 24 random hex characters: inside every nonce rule of the service (V3/SDK 8–96, Connect 1–96).
func NewNonce() string {
	var raw [12]byte
	if _, err := rand.Read(raw[:]); err != nil {
		panic("cardkey: no randomness for a nonce: " + err.Error())
	}
	return hex.EncodeToString(raw[:])
}

func lessCodeUnits(a, b string) bool {
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return ua[i] < ub[i]
		}
	}
	return len(ua) < len(ub)
}
