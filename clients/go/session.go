package cardkey

import "fmt"

// SessionType is the kind of session an SDK login opened.
type SessionType string

const (
	CardSession SessionType = "card"
	UserSession SessionType = "app_user"
)

// Session is what an SDK card or user login leaves the client holding. Save it (it marshals to
// JSON) to go on heartbeating after a restart with Client.RestoreSession.
type Session struct {
	Type      SessionType `json:"type"`
	Token     string      `json:"token"`
	MachineID string      `json:"machine_id"`
	ExpiresAt string      `json:"expires_at"`
	// HeartbeatIntervalSeconds is the program's rhythm from the login answer; 0 when it gave none.
	HeartbeatIntervalSeconds int `json:"heartbeat_interval_seconds,omitempty"`
	// CardID or UserID is the session's owner: a heartbeat answer naming another is untrusted.
	CardID int64 `json:"card_id,omitempty"`
	UserID int64 `json:"user_id,omitempty"`
}

// String never shows the token, so logging a session is safe.
func (s Session) String() string {
	return fmt.Sprintf("cardkey.Session{Type: %s, MachineID: %q, ExpiresAt: %q, Token: %s}", s.Type, s.MachineID, s.ExpiresAt, redacted(s.Token))
}

// GoString is String, for %#v.
func (s Session) GoString() string { return s.String() }
