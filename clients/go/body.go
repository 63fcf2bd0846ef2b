package cardkey

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"
)

// field is one named value of a request body, kept in the order written.
type field struct {
	name  string
	value any
}

// jsonBody is a compact JSON object with the fields in order, without HTML escaping.
func jsonBody(fields ...field) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(jsonValue(f.name))
		b.WriteByte(':')
		b.Write(jsonValue(f.value))
	}
	b.WriteByte('}')
	return b.Bytes()
}

func jsonValue(v any) []byte {
	var b bytes.Buffer
	encoder := json.NewEncoder(&b)
	encoder.SetEscapeHTML(false)
	_ = encoder.Encode(v) // strings and integers only: cannot fail
	return bytes.TrimRight(b.Bytes(), "\n")
}

// formBody URL-encodes name/value pairs in order.
func formBody(pairs ...[2]string) []byte {
	parts := make([]string, len(pairs))
	for i, p := range pairs {
		parts[i] = url.QueryEscape(p[0]) + "=" + url.QueryEscape(p[1])
	}
	return []byte(strings.Join(parts, "&"))
}
