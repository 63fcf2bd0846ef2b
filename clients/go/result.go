package cardkey

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// Result is one answer of the service, whatever the family, judged by that family's success rule.
type Result[T any] struct {
	// Success is the family's success rule (Connect status true, standard code 0 — 1 on an unbind —,
	// legacy code 1) on an answer this client trusts. A failure never passes it.
	Success bool
	// Code is, on failure, the catalog code, always positive (Connect's -20002 becomes 20002), or a
	// client code (CodeNetworkError...), never 0 or 1; on success the family's success code as sent.
	Code int
	// Message is Connect's reason or the standard and legacy msg: it may be shown to the end user.
	Message string
	// RequestID and ErrorID (on SYSTEM_ERROR) are for the administrator: log them with a failure.
	RequestID, ErrorID string
	// HTTPStatus as received; 0 when no answer came back.
	HTTPStatus int
	// RetryAfter is the Retry-After header (RATE_LIMITED): never try again sooner.
	RetryAfter time.Duration
	// Data is the answer's data decoded on success (zero on failure).
	Data T
	// Fields is the answer's data object as received, every field kept (failures included), numbers as json.Number.
	Fields map[string]any
	// Features are the card type's features of a card answer (decisions §19), when present.
	Features []string
	// Trial is true when a card answer says the card is a device's trial card (decisions §21).
	Trial bool
	// EndedBy and EndedAt say why and when a session ended, on a SESSION_INVALID heartbeat
	// refusal that carries them (decisions §18): expired, forced_offline, card_banned...
	EndedBy, EndedAt string
	// Body is the answer's bytes as received.
	Body []byte
}

// Err is nil on success, else an *Error with the code, message and request id.
func (r Result[T]) Err() error {
	if r.Success {
		return nil
	}
	return &Error{Code: r.Code, Message: r.Message, RequestID: r.RequestID, ErrorID: r.ErrorID, HTTPStatus: r.HTTPStatus}
}

// Error is a failed Result as an error value.
type Error struct {
	Code               int
	Message            string
	RequestID, ErrorID string
	HTTPStatus         int
}

func (e *Error) Error() string {
	text := fmt.Sprintf("cardkey: %s (code %d", e.Message, e.Code)
	if e.RequestID != "" {
		text += ", request_id " + e.RequestID
	}
	if e.ErrorID != "" {
		text += ", error_id " + e.ErrorID
	}
	return text + ")"
}

// rawResult is a judged answer before its data is decoded into the route's type.
type rawResult = Result[struct{}]

// typed decodes the data of a judged answer into the route's type. Fields the type lacks stay in
// Fields; a field of an unexpected JSON type is left at its zero value.
func typed[T any](r rawResult) Result[T] {
	out := Result[T]{
		Success: r.Success, Code: r.Code, Message: r.Message, RequestID: r.RequestID, ErrorID: r.ErrorID,
		HTTPStatus: r.HTTPStatus, RetryAfter: r.RetryAfter, Fields: r.Fields, Features: r.Features, Trial: r.Trial,
		EndedBy: r.EndedBy, EndedAt: r.EndedAt, Body: r.Body,
	}
	if r.Success && r.Fields != nil {
		if encoded, err := json.Marshal(r.Fields); err == nil {
			_ = json.Unmarshal(encoded, &out.Data) // best effort: a type mismatch leaves that field zero
		}
	}
	return out
}

// parseObject is the JSON object in text (numbers kept exact), or nil for anything else.
func parseObject(text []byte) map[string]any {
	decoder := json.NewDecoder(bytes.NewReader(text))
	decoder.UseNumber()
	var value any
	if decoder.Decode(&value) != nil || decoder.More() {
		return nil
	}
	object, _ := value.(map[string]any)
	return object
}

// integer is a JSON number that is whole (1 or 1.0), never a boolean.
func integer(value any) (int64, bool) {
	number, ok := value.(json.Number)
	if !ok {
		return 0, false
	}
	if n, err := number.Int64(); err == nil {
		return n, true
	}
	f, err := number.Float64()
	if err != nil || f != float64(int64(f)) {
		return 0, false
	}
	return int64(f), true
}

func text(value any) string {
	s, _ := value.(string)
	return s
}

func stringList(value any) []string {
	list, ok := value.([]any)
	if !ok {
		return nil
	}
	out := make([]string, 0, len(list))
	for _, item := range list {
		if s, ok := item.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
