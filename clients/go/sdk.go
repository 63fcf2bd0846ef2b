package cardkey

import (
	"context"
	"net/url"
	"time"
)

// CardLogin is the SDK card login (POST /api/v1/cards/login): on success the client holds a card
// session (Client.StartHeartbeat keeps it alive). Data carries the top-level token and statecode too.
func (c *Client) CardLogin(ctx context.Context, cardKey, machineID string) Result[CardData] {
	r := c.sdk(ctx, "/api/v1/cards/login", true, anyCode, field{"card_key", cardKey}, field{"machine_id", machineID})
	r = bindTo(withTopLevel(r), cardNamed(machineID, cardKey))
	out := typed[CardData](r)
	if out.Success {
		c.hold(Session{
			Type: CardSession, Token: out.Data.SessionToken, MachineID: machineID, ExpiresAt: out.Data.SessionExpiresAt,
			HeartbeatIntervalSeconds: out.Data.HeartbeatIntervalSeconds, CardID: out.Data.ID,
		})
	}
	return out
}

// CardHeartbeat renews the held card session; SESSION_INVALID or SESSION_TYPE_MISMATCH clears it
// (and ends a running heartbeat loop).
func (c *Client) CardHeartbeat(ctx context.Context) Result[HeartbeatData] {
	return c.heartbeat(ctx, CardSession)
}

// CardTrial asks for this device's one trial card (POST /api/v1/cards/trial, decisions §21),
// already bound to it: log in with Data.Code. A repeat answers the same card while it is valid,
// then CodeTrialUsed; safe to retry.
func (c *Client) CardTrial(ctx context.Context, machineID string) Result[CardTrialData] {
	r := c.sdk(ctx, "/api/v1/cards/trial", true, 0, field{"machine_id", machineID})
	return typed[CardTrialData](bindTo(r, []named{{"machine_code", machineID, "device", true}}))
}

// CardCheckout asks for an offline licence for this bound device (POST /api/v1/cards/checkout);
// ttl 0 leaves the lifetime to the program's offline_grace_seconds.
func (c *Client) CardCheckout(ctx context.Context, cardKey, machineID string, ttl time.Duration) Result[CheckoutData] {
	fields := []field{{"card_key", cardKey}, {"machine_id", machineID}}
	if ttl > 0 {
		fields = append(fields, field{"ttl_seconds", int64(ttl / time.Second)})
	}
	return typed[CheckoutData](c.sdk(ctx, "/api/v1/cards/checkout", true, anyCode, fields...))
}

// CardTopup renews a card with a second, unused card of the same program and kind; refused with
// nothing changed as CodeTopupRefused (the reason in Message). Never retried: a repeat would find
// the top-up card consumed.
func (c *Client) CardTopup(ctx context.Context, cardKey, topupKey string) Result[CardData] {
	r := c.sdk(ctx, "/api/v1/cards/topup", false, 0, field{"card_key", cardKey}, field{"topup_key", topupKey})
	return typed[CardData](bindTo(r, []named{{"code", cardKey, "card", false}}))
}

// CardInfo is the card as its holder sees it: state, uses, seats, devices, unbind rules.
func (c *Client) CardInfo(ctx context.Context, cardKey string) Result[CardInfoData] {
	return typed[CardInfoData](c.sdk(ctx, "/api/v1/cards/info", true, 0, field{"card_key", cardKey}))
}

// CardUnbind is the holder's unbind of one device; its success is code 1 and only that. It may
// deduct time and ends that device's sessions. Never retried: each unbind may deduct time.
func (c *Client) CardUnbind(ctx context.Context, cardKey, machineID string) Result[CardData] {
	r := c.sdk(ctx, "/api/v1/cards/unbind", false, 1, field{"card_key", cardKey}, field{"machine_id", machineID})
	return typed[CardData](bindTo(r, cardNamed(machineID, cardKey)))
}

// UserRegister registers a program user; never retried (a repeat would find the name taken).
func (c *Client) UserRegister(ctx context.Context, username, password, machineID string) Result[UserData] {
	return typed[UserData](c.sdk(ctx, "/api/v1/users/register", false, anyCode, userFields(username, password, machineID)...))
}

// UserLogin logs a program user in: on success the client holds a user session on the bound machine.
func (c *Client) UserLogin(ctx context.Context, username, password, machineID string) Result[UserLoginData] {
	out := typed[UserLoginData](c.sdk(ctx, "/api/v1/users/login", true, anyCode, userFields(username, password, machineID)...))
	if out.Success {
		bound := out.Data.MachineID
		if bound == "" {
			bound = machineID
		}
		c.hold(Session{
			Type: UserSession, Token: out.Data.SessionToken, MachineID: bound, ExpiresAt: out.Data.SessionExpiresAt,
			HeartbeatIntervalSeconds: out.Data.HeartbeatIntervalSeconds, UserID: out.Data.Profile.UserID,
		})
	}
	return out
}

// UserHeartbeat renews the held user session; SESSION_INVALID or SESSION_TYPE_MISMATCH clears it.
func (c *Client) UserHeartbeat(ctx context.Context) Result[HeartbeatData] {
	return c.heartbeat(ctx, UserSession)
}

// CheckVersion is the SDK version check; DownloadURL may be relative to the base URL.
func (c *Client) CheckVersion(ctx context.Context, version string) Result[VersionData] {
	return typed[VersionData](c.sdk(ctx, "/api/v1/apps/version", true, anyCode, field{"version", version}))
}

// sdk sends a signed JSON call with app first in the body, signed afresh for each attempt.
func (c *Client) sdk(ctx context.Context, path string, idempotent bool, successCode int, fields ...field) rawResult {
	body := jsonBody(append([]field{{"app", c.programID}}, fields...)...)
	return c.do(ctx, Standard, call{
		method: "POST", path: path, idempotent: idempotent,
		build: func() request { return c.signed(path, jsonType, body) },
	}, successCode)
}

// V3CardLogin is the HTTP V3 card login (signed form): a compatible token, no session.
func (c *Client) V3CardLogin(ctx context.Context, cardKey, machineID string) Result[CardData] {
	const path = "/api/legacy/v3/cards/login"
	body := formBody([2]string{"app", c.programID}, [2]string{"kami", cardKey}, [2]string{"imei", machineID})
	r := c.do(ctx, Standard, call{
		method: "POST", path: path, idempotent: true,
		build: func() request { return c.signed(path, formType, body) },
	}, anyCode)
	return typed[CardData](bindTo(withTopLevel(r), cardNamed(machineID, cardKey)))
}

// ConnectNonce chooses the nonce of a Connect login: FreshNonce (a new random one per attempt, the
// default), NoNonce, or a nonce of yours (never retried: a repeat within 60 s is NONCE_REPLAYED).
type ConnectNonce struct {
	own  string
	none bool
}

var (
	FreshNonce = ConnectNonce{}
	NoNonce    = ConnectNonce{none: true}
)

// OwnNonce sends nonce as it is (1–96 of [A-Za-z0-9_.:-]); an empty one is FreshNonce.
func OwnNonce(nonce string) ConnectNonce { return ConnectNonce{own: nonce} }

// ConnectLogin is the Connect login (POST /connect/{program_id}): unsigned, replay-protected by a
// nonce. Its success is status true (Code 1); the token is in Data.Token and opens no session.
func (c *Client) ConnectLogin(ctx context.Context, cardKey, serial string, nonce ConnectNonce) Result[CardData] {
	path := "/connect/" + url.PathEscape(c.programID)
	r := c.do(ctx, Connect, call{
		method: "POST", path: path, idempotent: nonce == FreshNonce,
		build: func() request {
			pairs := [][2]string{{"user_key", cardKey}, {"serial", serial}}
			sent := nonce.own
			if nonce == FreshNonce {
				sent = NewNonce()
			}
			if sent != "" {
				pairs = append(pairs, [2]string{"nonce", sent})
			}
			return request{header: plainHeader(formType), body: formBody(pairs...), nonce: sent}
		},
	}, anyCode)
	// Connect's success names the device (machine_code) but not the card.
	return typed[CardData](bindTo(r, []named{{"machine_code", serial, "device", true}}))
}

// withTopLevel offers the standard card logins' top-level token and statecode in data too.
func withTopLevel(r rawResult) rawResult {
	if !r.Success || r.Fields == nil {
		return r
	}
	top := parseObject(r.Body)
	fields := make(map[string]any, len(r.Fields)+2)
	for k, v := range r.Fields {
		fields[k] = v
	}
	for _, name := range []string{"token", "statecode"} {
		if v, ok := top[name]; ok {
			fields[name] = v
		}
	}
	r.Fields = fields
	return r
}

func userFields(username, password, machineID string) []field {
	return []field{{"username", username}, {"password", password}, {"machine_id", machineID}}
}
