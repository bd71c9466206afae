package apitest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"

	"contracts/server"
)

// WireDate is the one date-time form the interfaces write: UTC, whole
// seconds.
var WireDate = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`)

// errorTimestamp is the form of the error body's timestamp.
var errorTimestamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$`)

// JSONAnswers returns the rules every answer of an interface's scenarios
// keeps, for Caller.Answer: the answer is JSON in server.MIMEJSON, and an
// error carries the spec's error body — code and status agreeing with the
// answer's status, a message, a timestamp — with, on the key interface,
// the request path and the message again as description, and without
// those two on the embedded interface (and the signing page beside it).
func JSONAnswers(which Interface) func(path string, r Reply) []string {
	return func(path string, r Reply) []string {
		var out []string
		if ct := r.Header.Get("Content-Type"); ct != server.MIMEJSON {
			out = append(out, fmt.Sprintf("Content-Type %q, want %q", ct, server.MIMEJSON))
		}
		if r.Status < 400 {
			return out
		}
		var body map[string]any
		if err := json.Unmarshal([]byte(r.Body), &body); err != nil {
			return append(out, fmt.Sprintf("error body: %v: %s", err, r.Body))
		}
		if body["code"] != float64(r.Status) || body["status"] != strconv.Itoa(r.Status)+" "+http.StatusText(r.Status) {
			out = append(out, "error body code/status: "+r.Body)
		}
		msg, _ := body["message"].(string)
		if msg == "" {
			out = append(out, "error body without message: "+r.Body)
		}
		if ts, _ := body["timestamp"].(string); !errorTimestamp.MatchString(ts) {
			out = append(out, fmt.Sprintf("error timestamp %q", ts))
		}
		if which == Key {
			if body["description"] != msg {
				out = append(out, "error body description differs from message: "+r.Body)
			}
			if body["path"] != path {
				out = append(out, fmt.Sprintf("error path %v, want %s", body["path"], path))
			}
			return out
		}
		for _, member := range []string{"path", "description"} {
			if _, ok := body[member]; ok {
				out = append(out, fmt.Sprintf("%s error carries %s: %s", which, member, r.Body))
			}
		}
		return out
	}
}
