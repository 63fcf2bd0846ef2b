package cardkey

import (
	"context"
	"errors"
)

// LegacyRoutes are the legacy V1 card routes, MD5-signed with the legacy_secret; with
// Options.LegacyTransport they go through the encrypted aggregate entry /api/app instead, and the
// answer's data is opened for you, so results look the same either way. Success is code 1.
type LegacyRoutes struct{ c *Client }

// Legacy is the legacy V1 card routes of this client; an error when Options.LegacySecret is not set.
func (c *Client) Legacy() (LegacyRoutes, error) {
	if c.legacySecret == "" {
		return LegacyRoutes{}, errors.New("cardkey: the legacy routes need Options.LegacySecret")
	}
	return LegacyRoutes{c}, nil
}

// CardLogin is POST /api/card_login (aggregate action card_login): a compatible token in
// Data.Token, no session; retried on a missing answer.
func (l LegacyRoutes) CardLogin(ctx context.Context, cardKey, machineID string) Result[CardData] {
	return l.cardCall(ctx, "/api/card_login", "card_login", cardKey, machineID, true)
}

// Unbind is POST /api/unbind_machine (aggregate action card_unbind): frees this device's slot.
// Never retried: each unbind may deduct time.
func (l LegacyRoutes) Unbind(ctx context.Context, cardKey, machineID string) Result[CardData] {
	return l.cardCall(ctx, "/api/unbind_machine", "card_unbind", cardKey, machineID, false)
}

func (l LegacyRoutes) cardCall(ctx context.Context, path, api, cardKey, machineID string, idempotent bool) Result[CardData] {
	c := l.c
	transport := c.legacyTransport
	build := func() request {
		fields := map[string]string{"app": c.programID, "kami": cardKey, "imei": machineID, "nonce": NewNonce()}
		if transport == nil {
			signed := md5Signed(fields, c.legacySecret, c.now())
			body := formBody(orderedPairs(signed, "app", "kami", "imei", "nonce", "t", "sign")...)
			return request{header: plainHeader(formType), body: body, nonce: signed["nonce"]}
		}
		fields["api"] = api
		signed := md5Signed(fields, c.legacySecret, c.now())
		inner := formBody(orderedPairs(signed, "api", "app", "kami", "imei", "nonce", "t", "sign")...)
		data, _ := transport.Seal(string(inner), nil) // the mode was validated by New
		// The service signs its answer before it opens data, so REQUEST_NONCE is empty; the nonce
		// inside the ciphertext still binds the answer through REQUEST_DIGEST.
		return request{header: plainHeader(formType), body: formBody([2]string{"app", c.programID}, [2]string{"data", data})}
	}
	if transport != nil {
		path = "/api/app"
	}
	r := c.do(ctx, Legacy, call{method: "POST", path: path, build: build, idempotent: idempotent}, anyCode)
	return typed[CardData](bindTo(openData(r, transport), cardNamed(machineID, cardKey)))
}

// openData opens a sealed success data; one that does not open is UNEXPECTED_RESPONSE, never a success.
func openData(r rawResult, transport *LegacyTransport) rawResult {
	if transport == nil || !r.Success {
		return r
	}
	sealed, isText := parseObject(r.Body)["data"].(string)
	if !isText {
		return r
	}
	plain, err := transport.Open(sealed)
	data := parseObject([]byte(plain))
	if err != nil || data == nil {
		return rawResult{
			Code: CodeUnexpectedResponse, Message: "The answer's data does not open with the transport key (wrong LegacyTransport?)",
			RequestID: r.RequestID, HTTPStatus: r.HTTPStatus, Body: r.Body,
		}
	}
	r.Fields, r.Features, r.Trial = data, stringList(data["features"]), data["trial"] == true
	return r
}

func orderedPairs(fields map[string]string, names ...string) [][2]string {
	out := make([][2]string, 0, len(names))
	for _, name := range names {
		if value, ok := fields[name]; ok {
			out = append(out, [2]string{name, value})
		}
	}
	return out
}
