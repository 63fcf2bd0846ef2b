package cardkey

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Family is a protocol family; each has its own success rule (docs/protocol.md §1).
type Family int

const (
	// Connect: status === true, never code.
	Connect Family = iota
	// Standard (HTTP V3, SDK v1): success, or where it is absent code 0 or 1.
	Standard
	// Legacy: code === 1.
	Legacy
)

// anyCode lets a standard route accept code 0 or 1; unbind fixes 1, top-up and info fix 0.
const anyCode = -1

var familySuccessCode = map[Family]int64{Connect: 1, Standard: 0, Legacy: 1}

var connectTopFields = []string{"status", "code", "reason", "data", "request_id"}
var connectDataFields = []string{"token", "expires_at", "device_limit", "server_time", "machine_code", "announcement"}

// answer is an HTTP answer as the transport read it.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// IsSuccess is the success rule alone. successCode is a standard route's own success code
// (0 or 1; -1 for either): such a route succeeds only on exactly that code with success not false.
func IsSuccess(family Family, body map[string]any, successCode int) bool {
	code, hasCode := integer(body["code"])
	switch family {
	case Connect:
		status, ok := body["status"].(bool)
		return ok && status
	case Standard:
		success, isBool := body["success"].(bool)
		if successCode != anyCode {
			return hasCode && code == int64(successCode) && !(isBool && !success)
		}
		if isBool {
			return success
		}
		return hasCode && (code == 0 || code == 1)
	case Legacy:
		return hasCode && code == 1
	}
	return false
}

// judge applies the family's rule; anything that is not a JSON object (or is a redirect) is UNEXPECTED_RESPONSE.
func judge(family Family, a answer, connectNames map[string]string, successCode int) rawResult {
	received := parseObject(a.body)
	body := received
	if family == Connect {
		body = renameConnect(received, connectNames)
	}
	r := rawResult{HTTPStatus: a.status, Body: a.body, RetryAfter: retryAfter(a.header)}
	if body != nil {
		r.RequestID = text(body["request_id"])
	}
	if r.RequestID == "" {
		r.RequestID = a.header.Get("X-Request-Id")
	}
	if body == nil || (a.status >= 300 && a.status < 400) {
		r.Code, r.Message = CodeUnexpectedResponse, unexpected(a)
		return r
	}
	r.Fields, _ = body["data"].(map[string]any)
	message := text(body["msg"])
	if family == Connect {
		message = text(body["reason"])
	}
	code, hasCode := integer(body["code"])
	if IsSuccess(family, body, successCode) {
		if !hasCode {
			code = familySuccessCode[family]
		}
		r.Success, r.Code, r.Message = true, int(code), message
		r.Features = stringList(r.Fields["features"])
		r.Trial = r.Fields["trial"] == true
		return r
	}
	r.ErrorID = text(body["error_id"])
	switch {
	case hasCode && (code > 1 || code < -1):
		if code < 0 {
			code = -code
		}
		r.Code, r.Message = int(code), message
		if message == "" {
			r.Message = unexpected(a)
		}
	case hasCode:
		r.Code = CodeUnexpectedResponse
		r.Message = fmt.Sprintf("Unexpected answer (HTTP %d): code %d is neither this route's success nor a failure code", a.status, code)
	default:
		r.Code, r.Message = CodeUnexpectedResponse, message
		if message == "" {
			r.Message = unexpected(a)
		}
	}
	if r.Code == CodeSessionInvalid {
		r.EndedBy, r.EndedAt = text(r.Fields["ended_by"]), text(r.Fields["ended_at"])
	}
	return r
}

// renameConnect maps a customized Connect answer back to the default names (unknown fields stay).
func renameConnect(body map[string]any, names map[string]string) map[string]any {
	if body == nil || len(names) == 0 {
		return body
	}
	top := renameBack(body, names, connectTopFields)
	if data, ok := top["data"].(map[string]any); ok {
		top["data"] = renameBack(data, names, connectDataFields)
	}
	return top
}

func renameBack(source map[string]any, names map[string]string, fields []string) map[string]any {
	out := make(map[string]any, len(source))
	for k, v := range source {
		out[k] = v
	}
	for _, field := range fields {
		custom, ok := names[field]
		if !ok || custom == field {
			continue
		}
		if value, present := source[custom]; present {
			out[field] = value
			delete(out, custom)
		}
	}
	return out
}

func retryAfter(header http.Header) time.Duration {
	seconds, err := strconv.ParseFloat(header.Get("Retry-After"), 64)
	if err != nil || seconds < 0 {
		return 0
	}
	return time.Duration(seconds * float64(time.Second))
}

func unexpected(a answer) string {
	if a.status >= 300 && a.status < 400 {
		return fmt.Sprintf("Unexpected redirect (HTTP %d): check the service address", a.status)
	}
	contentType := a.header.Get("Content-Type")
	if contentType == "" {
		contentType = "no content type"
	}
	return fmt.Sprintf("Unexpected answer (HTTP %d, %s): check the service address", a.status, contentType)
}
