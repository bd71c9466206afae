package signflow_test

import (
	"errors"
	"fmt"
	"testing"

	"contracts/signflow"
)

// The error bodies each code becomes on the wire (one status per code, the
// message, line and key as the spec names them) are checked by
// server/server_test.go (TestErrorBodies) and server/apidocs/spec_test.go
// (TestErrorBodies); here, the rule of error.go: only an *Error, however
// wrapped, tells its code, message, line and key; anything else is an
// internal error with a generic message, so no detail of it reaches a caller.
func TestErrorAccessorsTellOnlyDomainErrors(t *testing.T) {
	domain := &signflow.Error{Code: signflow.EINVALID, Message: "body: line 3 is bad", Line: 3}
	domain.Keyed(signflow.KeyPhone)
	for _, tc := range []struct {
		name               string
		err                error
		code, message, key string
		line               int
	}{
		{"nil", nil, "", "", "", 0},
		{"plain", errors.New("open /var/lib/contracts.db: permission denied"), signflow.EINTERNAL, "Internal error.", "", 0},
		{"domain", domain, signflow.EINVALID, "body: line 3 is bad", signflow.KeyPhone, 3},
		{"wrapped", fmt.Errorf("create: %w", domain), signflow.EINVALID, "body: line 3 is bad", signflow.KeyPhone, 3},
		{"formatted", signflow.Errorf(signflow.ENOTFOUND, "Contract %s not found.", "x"), signflow.ENOTFOUND, "Contract x not found.", "", 0},
	} {
		if got := signflow.ErrorCode(tc.err); got != tc.code {
			t.Errorf("%s: code %q, want %q", tc.name, got, tc.code)
		}
		if got := signflow.ErrorMessage(tc.err); got != tc.message {
			t.Errorf("%s: message %q, want %q", tc.name, got, tc.message)
		}
		if got := signflow.ErrorKey(tc.err); got != tc.key {
			t.Errorf("%s: key %q, want %q", tc.name, got, tc.key)
		}
		if got := signflow.ErrorLine(tc.err); got != tc.line {
			t.Errorf("%s: line %d, want %d", tc.name, got, tc.line)
		}
	}
	seen := map[string]bool{}
	for _, k := range signflow.RefusalKeys {
		if k == "" || seen[k] {
			t.Errorf("refusal key %q empty or twice", k)
		}
		seen[k] = true
	}
}
