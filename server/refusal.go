package server

import (
	"errors"
	"strconv"
	"time"

	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// ReasonHeader names, on an error answer of the signing page's and the
// cabinet's JSON APIs, the refusal the page explains in its language
// (sign.js and cabinet.js read it through common.js); X-Attempts-Left or
// Retry-After go with it where they help.
const ReasonHeader = "X-Sign-Reason"

// The reasons of the two pages:
//
//	wrong-code (with X-Attempts-Left), code-format, code-expired, no-code, code-intent,
//	sends-exhausted, resend-wait, rate-limited and locked (with
//	Retry-After), unavailable, session-closed, session-expired,
//	session-not-found, identity-state, identity-mismatch, wrong-method,
//	contract-changed; the cabinet's login adds csrf, logged-out and
//	number-format; the signing page adds method-unavailable,
//	signature-refused, identity-cancelled and identity-refused.
var reasons = []struct {
	err    *signflow.Error
	reason string
}{
	{signflow.ErrSessionNotFound, "session-not-found"},
	{signflow.ErrSessionExpired, "session-expired"},
	{signflow.ErrSessionClosed, "session-closed"},
	{signflow.ErrTooManyWrong, "session-closed"},
	{signflow.ErrCodeExpired, "code-expired"},
	{signflow.ErrNoCode, "no-code"},
	{signflow.ErrCodeIntent, "code-intent"},
	{signflow.ErrCodeFormat, "code-format"},
	{signflow.ErrSendsExhausted, "sends-exhausted"},
	{signflow.ErrIdentityState, "identity-state"},
	{signflow.ErrIdentityMismatch, "identity-mismatch"},
	{signflow.ErrNotIdentity, "wrong-method"},
	{signflow.ErrNotEIMZO, "wrong-method"},
	{signflow.ErrContractChanged, "contract-changed"},
	{signflow.ErrCSRF, "csrf"},
	{signflow.ErrCabinetSession, "logged-out"},
	{signflow.ErrLoginNumber, "number-format"},
}

// ReasonOf names a domain refusal for the pages, or "".
func ReasonOf(err error) string {
	if signflow.ErrorCode(err) == signflow.EUNAVAILABLE {
		return "unavailable"
	}
	for _, r := range reasons {
		if errors.Is(err, r.err) {
			return r.reason
		}
	}
	return ""
}

// Refuse names the refusal err in ReasonHeader (with the attempts left or
// the wait) and returns the error for the error handler to write; a
// refusal with a wait becomes a 429 that says when to come back.
func Refuse(c echo.Context, err error) error {
	hd := c.Response().Header()
	var (
		wrong  *signflow.WrongCodeError
		wait   *signflow.ResendWaitError
		locked *signflow.LoginLockedError
		limit  *RetryAfterError
	)
	switch {
	case errors.As(err, &wrong):
		hd.Set(ReasonHeader, "wrong-code")
		hd.Set("X-Attempts-Left", strconv.Itoa(wrong.Left))
	case errors.As(err, &locked):
		hd.Set(ReasonHeader, "locked")
		return waitFor(err, locked.After)
	case errors.As(err, &wait):
		hd.Set(ReasonHeader, "resend-wait")
		return waitFor(err, wait.After)
	case errors.As(err, &limit):
		hd.Set(ReasonHeader, "rate-limited")
	default:
		if r := ReasonOf(err); r != "" {
			hd.Set(ReasonHeader, r)
		}
	}
	return err
}

// waitFor turns a refusal with a wait into a 429 that says when to come back.
func waitFor(err error, after time.Duration) error {
	return &RetryAfterError{Err: signflow.Errorf(signflow.ERATELIMIT, "%s", signflow.ErrorMessage(err)), After: after}
}

// HTTPStatus is the status the error handler answers err with, for
// answers a handler writes itself (an HTML page).
func HTTPStatus(err error) int {
	code, _ := statusAndMessage(err)
	return code
}
