package cardkey

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"
)

// LicencePayload is what an offline licence says (docs/protocol.md §6.3); times are Unix seconds.
type LicencePayload struct {
	V              int      `json:"v"`
	ProgramID      string   `json:"program_id"`
	CardID         int64    `json:"card_id"`
	CardCodeSHA256 string   `json:"card_code_sha256"`
	MachineID      string   `json:"machine_id"`
	Kid            string   `json:"kid"`
	IssuedAt       int64    `json:"issued_at"`
	ValidUntil     int64    `json:"valid_until"`
	CardExpiresAt  *int64   `json:"card_expires_at"` // nil for a permanent card
	Features       []string `json:"features,omitempty"`
	Trial          bool     `json:"trial,omitempty"` // a trial card (decisions §21)
}

// LicenceCheck is Valid with the decoded Payload, or not valid with a Reason.
type LicenceCheck struct {
	Valid   bool
	Payload LicencePayload
	Reason  string
}

// VerifyLicence checks a licence without a network: the signature with a pinned key (the
// payload's kid), the program, this machine, the card (when cardKey is not empty) and that
// valid_until has not passed at now.
func VerifyLicence(licence string, keys map[string]string, programID, machineID, cardKey string, now time.Time) LicenceCheck {
	parts := strings.Split(licence, ".")
	if len(parts) != 2 || parts[0] == "" || parts[1] == "" {
		return refused("not a licence")
	}
	encoded := parts[0]
	raw, err := decodeBase64URL(encoded)
	signature, sigErr := decodeBase64URL(parts[1])
	var payload LicencePayload
	if err != nil || sigErr != nil || json.Unmarshal(raw, &payload) != nil || payload.ValidUntil == 0 {
		return refused("not a licence")
	}
	pinned, ok := keys[payload.Kid]
	if !ok {
		return refused("signed with an unknown key " + payload.Kid)
	}
	key, err := PublicKey(pinned)
	if err != nil || len(signature) != ed25519.SignatureSize || !ed25519.Verify(key, []byte("svc-licence-v1."+encoded), signature) {
		return refused("the signature does not verify")
	}
	if payload.V != 1 || payload.ProgramID != programID {
		return refused("for another program")
	}
	if payload.MachineID != machineID {
		return refused("for another machine")
	}
	if cardKey != "" {
		sum := sha256.Sum256([]byte(cardKey))
		if payload.CardCodeSHA256 != hex.EncodeToString(sum[:]) {
			return refused("for another card")
		}
	}
	if now.Unix() > payload.ValidUntil {
		return refused("expired")
	}
	return LicenceCheck{Valid: true, Payload: payload}
}

// CheckLicence verifies a kept offline licence for this program and device with the pinned
// ResponseKeys, without a network. Use it when a login answers CodeNetworkError, never after a
// refusal: a banned card must stop. Without pinned keys nothing can be verified: never valid.
func (c *Client) CheckLicence(licence, cardKey, machineID string) LicenceCheck {
	if c.responseKeys == nil {
		return refused("no pinned ResponseKeys to verify it with")
	}
	return VerifyLicence(licence, c.responseKeys, c.programID, machineID, cardKey, c.now())
}

func refused(reason string) LicenceCheck { return LicenceCheck{Reason: reason} }
