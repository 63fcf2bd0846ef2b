// Package cardkey is the official Go client of the card-key login service.
//
// It signs requests exactly as the service verifies them (HMAC-SHA256 for HTTP V3 and SDK v1,
// MD5 for the legacy routes), applies each protocol family's success rule, verifies signed answers
// (signature v2) against pinned Ed25519 keys, holds the session of an SDK card or user login and
// keeps it alive with a heartbeat goroutine. It uses the standard library only.
//
// No method returns an error for what the service or the network does: every call answers a
// Result whose Success field is the one test a caller needs; a failure carries a positive catalog
// code (CodeCardExpired...) or a client code (CodeNetworkError...). Only programming errors (a
// missing option) are errors.
//
//	client, err := cardkey.New(cardkey.Options{BaseURL: url, ProgramID: "48213907", APISecret: secret})
//	machine, err := cardkey.MachineCode("48213907") // this device's machine code (机器码)
//	login := client.CardLogin(ctx, cardKey, machine)
//	if !login.Success {
//		log.Fatalf("refused: %s (code %d)", login.Message, login.Code)
//	}
//
// See clients/go/README.md, docs/protocol.md and docs/errors.md.
package cardkey
