package signflow

import (
	"errors"
	"fmt"
)

// Error codes. The HTTP layer maps each to one status in one place.
const (
	EINVALID      = "invalid"      // 400
	EUNAUTHORIZED = "unauthorized" // 401
	EFORBIDDEN    = "forbidden"    // 403
	ENOTFOUND     = "not_found"    // 404
	ETOOLARGE     = "too_large"    // 413
	ERATELIMIT    = "rate_limited" // 429
	EINTERNAL     = "internal"     // 500
	EUNAVAILABLE  = "unavailable"  // 503
)

// Error is a domain error whose message is safe to show to a caller.
type Error struct {
	Code    string
	Message string
	// Line is the line of a submitted text (a template definition) the
	// error concerns; 0 when none.
	Line int
}

func (e *Error) Error() string { return fmt.Sprintf("signflow: code=%s message=%s", e.Code, e.Message) }

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err, EINTERNAL for anything that is not an *Error.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the caller-safe message of err, a generic one for unknown errors.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return "Internal error."
}

// ErrorLine returns the line of submitted text err concerns, 0 when none.
func ErrorLine(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Line
	}
	return 0
}
