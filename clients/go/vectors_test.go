package cardkey

import (
	"crypto/aes"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Every case of sdk/vectors/signing-vectors.json, the file the service and the other clients check.

func TestVectorsHMACSignaturesMatch(t *testing.T) {
	for _, v := range loadVectors(t).HMAC {
		if got := string(HMACSigningInput(v.Method, v.Path, v.Timestamp, v.Nonce, []byte(v.Body))); got != v.Input {
			t.Errorf("%s: input %q, want %q", v.Name, got, v.Input)
		}
		if got := HMACSignature(v.Secret, v.Method, v.Path, v.Timestamp, v.Nonce, []byte(v.Body)); got != v.Signature {
			t.Errorf("%s: signature %s, want %s", v.Name, got, v.Signature)
		}
	}
}

func TestVectorsMD5SignaturesMatch(t *testing.T) {
	for _, v := range loadVectors(t).MD5 {
		if got := MD5SigningInput(v.Fields, v.Secret); got != v.Input {
			t.Errorf("%s: input %q, want %q", v.Name, got, v.Input)
		}
		if got := MD5Sign(v.Fields, v.Secret); got != v.Sign {
			t.Errorf("%s: sign %s, want %s", v.Name, got, v.Sign)
		}
	}
}

func TestVectorsKeyAndKid(t *testing.T) {
	e := loadVectors(t).Ed25519
	seed, _ := hex.DecodeString(e.Seed)
	public := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
	decoded, err := PublicKey(e.PublicKey)
	if err != nil || hex.EncodeToString(decoded) != e.PublicHex || !public.Equal(decoded) {
		t.Fatalf("public key %x (%v), want %s", decoded, err, e.PublicHex)
	}
	sum := sha256.Sum256(decoded)
	if kid := hex.EncodeToString(sum[:])[:16]; kid != e.Kid {
		t.Errorf("kid %s, want %s", kid, e.Kid)
	}
}

func vectorAnswer(v responseVector, kid string, version string) SignedAnswer {
	header := http.Header{}
	header.Set(ResponseTimestampHeader, v.Timestamp)
	header.Set(ResponseKeyHeader, kid)
	header.Set(ResponseSignatureHeader, v.Signature)
	if version != "" {
		header.Set(ResponseVersionHeader, version)
	}
	return SignedAnswer{Method: v.Method, Path: v.Path, Nonce: v.Nonce, Sent: []byte(v.Request), Status: v.Status, Header: header.Get, Body: []byte(v.Body)}
}

func vectorTime(t *testing.T, stamp string) time.Time {
	seconds, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return time.Unix(seconds, 0)
}

func TestVectorsSignedAnswersV2Verify(t *testing.T) {
	e := loadVectors(t).Ed25519
	keys := map[string]string{e.Kid: e.PublicKey}
	for _, v := range e.Responses {
		if got := RequestDigest(RequestDigestInput(v.Method, v.Path+"?"+v.Request, []byte(nil))); v.Method == "GET" && got != v.RequestDigest {
			t.Errorf("%s: GET digest %s, want %s", v.Name, got, v.RequestDigest)
		}
		if got := RequestDigest([]byte(v.Request)); got != v.RequestDigest {
			t.Errorf("%s: digest %s, want %s", v.Name, got, v.RequestDigest)
		}
		if got := string(ResponseSigningInput(v.Method, v.Path, v.Nonce, []byte(v.Request), v.Timestamp, v.Status, []byte(v.Body))); got != v.Input {
			t.Errorf("%s: signed input %q, want %q", v.Name, got, v.Input)
		}
		now := vectorTime(t, v.Timestamp)
		if why := AnswerDistrust(vectorAnswer(v, e.Kid, "2"), keys, DefaultMaxSkew, now); why != "" {
			t.Errorf("%s: genuine answer distrusted: %s", v.Name, why)
		}
		// The same answer to another request (a relay's swapped card: one more byte) does not verify.
		relayed := vectorAnswer(v, e.Kid, "2")
		relayed.Sent = append([]byte(v.Request), 'X')
		if why := AnswerDistrust(relayed, keys, DefaultMaxSkew, now); why != "the answer signature does not verify" {
			t.Errorf("%s: relayed answer: %q", v.Name, why)
		}
		tampered := vectorAnswer(v, e.Kid, "2")
		tampered.Body = []byte(strings.Replace(v.Body, "\"", " \"", 1))
		if why := AnswerDistrust(tampered, keys, DefaultMaxSkew, now); why == "" {
			t.Errorf("%s: a tampered body verified", v.Name)
		}
		if why := AnswerDistrust(vectorAnswer(v, e.Kid, "2"), keys, DefaultMaxSkew, now.Add(301*time.Second)); !strings.Contains(why, "time window") {
			t.Errorf("%s: stale answer: %q", v.Name, why)
		}
		if why := AnswerDistrust(vectorAnswer(v, "0000000000000000", "2"), keys, DefaultMaxSkew, now); !strings.Contains(why, "unknown key") {
			t.Errorf("%s: unknown kid: %q", v.Name, why)
		}
	}
}

func TestVectorsV1AnswersAreRefused(t *testing.T) {
	e := loadVectors(t).Ed25519
	keys := map[string]string{e.Kid: e.PublicKey}
	for _, v := range e.ResponsesV1 {
		now := vectorTime(t, v.Timestamp)
		for _, version := range []string{"", "1"} {
			if why := AnswerDistrust(vectorAnswer(v, e.Kid, version), keys, DefaultMaxSkew, now); !strings.Contains(why, "version 2") {
				t.Errorf("%s (version %q): %q, want a refusal naming version 2", v.Name, version, why)
			}
		}
		// Claiming version 2 does not help: the v1 signature is not over the v2 string.
		if why := AnswerDistrust(vectorAnswer(v, e.Kid, "2"), keys, DefaultMaxSkew, now); why != "the answer signature does not verify" {
			t.Errorf("%s: v1 signature as v2: %q", v.Name, why)
		}
	}
}

func TestVectorsLicence(t *testing.T) {
	e := loadVectors(t).Ed25519
	keys := map[string]string{e.Kid: e.PublicKey}
	for _, v := range e.Licences {
		program, machine := v.Payload["program_id"].(string), v.Payload["machine_id"].(string)
		issued := time.Unix(int64(v.Payload["issued_at"].(float64)), 0)
		validUntil := time.Unix(int64(v.Payload["valid_until"].(float64)), 0)
		check := VerifyLicence(v.Licence, keys, program, machine, v.CardKey, issued)
		if !check.Valid || check.Payload.CardID != int64(v.Payload["card_id"].(float64)) || check.Payload.Kid != e.Kid {
			t.Fatalf("%s: %+v", v.Name, check)
		}
		cases := map[string]LicenceCheck{
			"expired":                             VerifyLicence(v.Licence, keys, program, machine, v.CardKey, validUntil.Add(time.Second)),
			"for another machine":                 VerifyLicence(v.Licence, keys, program, "another-pc", v.CardKey, issued),
			"for another card":                    VerifyLicence(v.Licence, keys, program, machine, "another-card", issued),
			"for another program":                 VerifyLicence(v.Licence, keys, "10000001", machine, v.CardKey, issued),
			"signed with an unknown key " + e.Kid: VerifyLicence(v.Licence, map[string]string{}, program, machine, v.CardKey, issued),
			"the signature does not verify":       VerifyLicence(v.Licence[:len(v.Licence)-2]+"AA", keys, program, machine, v.CardKey, issued),
			"not a licence":                       VerifyLicence("garbage", keys, program, machine, v.CardKey, issued),
		}
		for reason, got := range cases {
			if got.Valid || got.Reason != reason {
				t.Errorf("%s: %+v, want refused %q", v.Name, got, reason)
			}
		}
	}
}

func TestVectorsTransportModes(t *testing.T) {
	tr := loadVectors(t).Transport
	key, _ := hex.DecodeString(tr.AES256Block.KeyHex)
	plain, _ := hex.DecodeString(tr.AES256Block.PlaintextHex)
	block, _ := aes.NewCipher(key)
	out := make([]byte, len(plain))
	block.Encrypt(out, plain)
	if hex.EncodeToString(out) != tr.AES256Block.CiphertextHex {
		t.Errorf("AES-256 block %x, want %s", out, tr.AES256Block.CiphertextHex)
	}
	modes := map[string][]transportVector{RC4: tr.RC4, AES: tr.AES, AESGCM: tr.AESGCM}
	for mode, cases := range modes {
		if len(cases) == 0 {
			t.Errorf("no %s vectors", mode)
		}
		for _, v := range cases {
			transport := LegacyTransport{Mode: mode, Key: v.Key}
			var iv []byte
			if v.IVHex != "" {
				iv, _ = hex.DecodeString(v.IVHex)
			}
			sealed, err := transport.Seal(v.Plaintext, iv)
			if err != nil || sealed != v.Data {
				t.Errorf("%s %s: sealed %s (%v), want %s", mode, v.Name, sealed, err, v.Data)
			}
			opened, err := transport.Open(v.Data)
			if err != nil || opened != v.Plaintext {
				t.Errorf("%s %s: opened %q (%v)", mode, v.Name, opened, err)
			}
			if mode != RC4 {
				if _, err := (LegacyTransport{Mode: mode, Key: v.Key + "x"}).Open(v.Data); err == nil {
					t.Errorf("%s %s: opened with a wrong key", mode, v.Name)
				}
			}
		}
	}
}
