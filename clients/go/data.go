package cardkey

// Each field named ...ISO is the instant of the field before it in ISO 8601 with the service
// zone's offset (docs/protocol.md, "Times and zones"); an older service leaves it out (zero).

// CardData is the data of a card answer of any family: logins (SDK, V3, Connect, legacy), the
// unbinds and top-up. Each route fills its own fields; the others stay zero. Result.Fields keeps
// every field as received.
type CardData struct {
	ID           int64  `json:"id"`
	Code         string `json:"code"`
	MachineCode  string `json:"machine_code"`
	ExpiresAt    string `json:"expires_at"`
	ExpiresAtISO string `json:"expires_at_iso"`
	// Token is the compatible login token (V3, SDK and legacy card logins, Connect).
	Token string `json:"token"`
	// Statecode is the card's status after a V3 or SDK login (active).
	Statecode string `json:"statecode"`
	// SessionToken, SessionExpiresAt and HeartbeatIntervalSeconds come with an SDK login.
	SessionToken             string `json:"session_token"`
	SessionExpiresAt         string `json:"session_expires_at"`
	SessionExpiresAtISO      string `json:"session_expires_at_iso"`
	HeartbeatIntervalSeconds int    `json:"heartbeat_interval_seconds"`
	DeviceLimit              int    `json:"device_limit"`
	ServerTime               int64  `json:"server_time"`
	Announcement             string `json:"announcement"`
	UnbindCount              int    `json:"unbind_count"`
	Kind                     string `json:"kind"`
	Status                   string `json:"status"`
	// UsesLeft is nil on a time card.
	UsesLeft *int     `json:"uses_left"`
	Features []string `json:"features"`
	// Trial is true for a device's trial card (decisions §21).
	Trial bool `json:"trial"`
}

// CardTrialData is a device's one trial card (POST /api/v1/cards/trial), already bound to it: log in with Code.
type CardTrialData struct {
	Code         string   `json:"code"`
	ExpiresAt    string   `json:"expires_at"`
	ExpiresAtISO string   `json:"expires_at_iso"`
	MachineCode  string   `json:"machine_code"`
	Trial        bool     `json:"trial"`
	Features     []string `json:"features"`
}

// HeartbeatData is a heartbeat's success: CardID on a card session, UserID on a user session.
type HeartbeatData struct {
	CardID              int64    `json:"card_id"`
	UserID              int64    `json:"user_id"`
	SessionExpiresAt    string   `json:"session_expires_at"`
	SessionExpiresAtISO string   `json:"session_expires_at_iso"`
	ServerTime          int64    `json:"server_time"`
	Features            []string `json:"features"`
	Trial               bool     `json:"trial"`
}

// UserData is a program user's registration.
type UserData struct {
	UserID   int64  `json:"user_id"`
	Username string `json:"username"`
	Status   string `json:"status"`
}

// UserProfile is the profile of a user login.
type UserProfile struct {
	UserID         int64  `json:"user_id"`
	Username       string `json:"username"`
	Status         string `json:"status"`
	CreatedAt      string `json:"created_at"`
	CreatedAtISO   string `json:"created_at_iso"`
	LastLoginAt    string `json:"last_login_at"`
	LastLoginAtISO string `json:"last_login_at_iso"`
}

// UserLoginData is an SDK user login: MachineID is the machine finally bound.
type UserLoginData struct {
	Profile                  UserProfile `json:"profile"`
	SessionToken             string      `json:"session_token"`
	SessionExpiresAt         string      `json:"session_expires_at"`
	SessionExpiresAtISO      string      `json:"session_expires_at_iso"`
	MachineID                string      `json:"machine_id"`
	HeartbeatIntervalSeconds int         `json:"heartbeat_interval_seconds"`
}

// VersionData is a version check; DownloadURL may be relative to the base URL.
type VersionData struct {
	LatestVersion   *string `json:"latest_version"`
	UpdateAvailable bool    `json:"update_available"`
	ForceUpdate     bool    `json:"force_update"`
	Changelog       string  `json:"changelog"`
	DownloadURL     string  `json:"download_url"`
}

// CheckoutData is an offline licence: keep Licence for an outage (Client.CheckLicence).
type CheckoutData struct {
	Licence      string `json:"licence"`
	Kid          string `json:"kid"`
	ExpiresAt    string `json:"expires_at"`
	ExpiresAtISO string `json:"expires_at_iso"`
	ValidUntil   int64  `json:"valid_until"`
}

// CardInfoData is the card as its holder sees it (docs/protocol.md §4.4).
type CardInfoData struct {
	Kind            string       `json:"kind"`
	Status          string       `json:"status"`
	ActivatedAt     *string      `json:"activated_at"`
	ActivatedAtISO  *string      `json:"activated_at_iso"`
	ExpiresAt       *string      `json:"expires_at"`
	ExpiresAtISO    *string      `json:"expires_at_iso"`
	UsesLeft        *int         `json:"uses_left"`
	DeviceLimit     int          `json:"device_limit"`
	ConcurrentLimit *int         `json:"concurrent_limit"`
	Devices         []CardDevice `json:"devices"`
	Unbind          UnbindRules  `json:"unbind"`
	Features        []string     `json:"features"`
	Trial           bool         `json:"trial"`
}

// CardDevice is a device bound to a card.
type CardDevice struct {
	MachineCode    string  `json:"machine_code"`
	BoundAt        string  `json:"bound_at"`
	BoundAtISO     string  `json:"bound_at_iso"`
	LastLoginAt    *string `json:"last_login_at"`
	LastLoginAtISO *string `json:"last_login_at_iso"`
}

// UnbindRules say whether and at what cost the holder may unbind; Remaining nil = unlimited.
type UnbindRules struct {
	Enabled       bool  `json:"enabled"`
	DeductSeconds int64 `json:"deduct_seconds"`
	Remaining     *int  `json:"remaining"`
}
