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
	// Key names a refusal that callers tell in their own words (one of
	// RefusalKeys), so that they match on it rather than on Message.
	Key string
}

// Keys of the refusals callers tell in their own words (the console's
// forms). A key stays when its message is reworded.
const (
	KeyName          = "name"              // a credential's name missing or too long
	KeyNoOwner       = "ownerIn.unknown"   // a credential's owner not there
	KeyNoScopes      = "scopes.none"       // a credential without scopes
	KeyNoTemplates   = "templateIds.none"  // neither templates nor allTemplates
	KeyKeyEvents     = "webhookEvents.key" // events chosen for an API key
	KeyWebhookURL    = "webhookUrl"        // any refusal of a webhook URL
	KeyPersonIN      = "in.individual"
	KeyPersonName    = "names.individual"
	KeyPersonPhone   = "phone.individual"
	KeyCompanyIN     = "in.company"
	KeyLegalName     = "legalName.company"
	KeyClientType    = "type"
	KeyPhone         = "phone"
	KeyClientTooLong = "tooLong"
)

// RefusalKeys are all the keys above.
var RefusalKeys = []string{KeyName, KeyNoOwner, KeyNoScopes, KeyNoTemplates, KeyKeyEvents, KeyWebhookURL,
	KeyPersonIN, KeyPersonName, KeyPersonPhone, KeyCompanyIN, KeyLegalName, KeyClientType, KeyPhone, KeyClientTooLong}

// Keyed sets the refusal's key and returns e.
func (e *Error) Keyed(key string) *Error {
	e.Key = key
	return e
}

func (e *Error) Error() string { return fmt.Sprintf("signflow: code=%s message=%s", e.Code, e.Message) }

// Errorf returns an *Error with the code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of err, EINTERNAL for anything that is not an *Error.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	} else if e, ok := err.(*Error); ok {
		return e.Code // not wrapped: no errors.As, whose target is allocated on every call
	}
	return wrappedCode(err)
}

func wrappedCode(err error) string {
	var e *Error
	if errors.As(err, &e) {
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

// ErrorKey returns the refusal key of err, "" when it has none.
func ErrorKey(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Key
	}
	return ""
}
