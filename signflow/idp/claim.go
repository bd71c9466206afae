package idp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Claim reads the person's 14-digit number from a userinfo document: the
// field named path, where dots reach into nested objects ("profile.pinfl").
// A field whose own name holds the dots is found too. The value may be a
// JSON string or an integer.
func Claim(userinfo []byte, path string) (string, error) {
	d := json.NewDecoder(bytes.NewReader(userinfo))
	d.UseNumber()
	var doc any
	if err := d.Decode(&doc); err != nil {
		return "", fmt.Errorf("userinfo is not JSON: %w", err)
	}
	v, ok := lookup(doc, path)
	if !ok {
		return "", fmt.Errorf("userinfo has no field %q", path)
	}
	var in string
	switch v := v.(type) {
	case string:
		in = strings.TrimSpace(v)
	case json.Number:
		in = v.String()
	default:
		return "", fmt.Errorf("userinfo field %q is not a string or a number", path)
	}
	if !digits14(in) {
		return "", fmt.Errorf("userinfo field %q is not 14 digits", path)
	}
	return in, nil
}

// lookup finds path in doc: the literal key first, then the dotted walk.
func lookup(doc any, path string) (any, bool) {
	if m, ok := doc.(map[string]any); ok {
		if v, ok := m[path]; ok {
			return v, true
		}
	}
	cur := doc
	for _, part := range strings.Split(path, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[part]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func digits14(s string) bool {
	if len(s) != 14 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
