// Package server holds what the HTTP interfaces share: the error body and
// its one mapping from domain codes to statuses, JSON helpers, middleware,
// metrics and the listeners with their life cycle.
package server

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"contracts/signflow"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// statusOf maps each domain code to its HTTP status.
var statusOf = map[string]int{
	signflow.EINVALID:      http.StatusBadRequest,
	signflow.EUNAUTHORIZED: http.StatusUnauthorized,
	signflow.EFORBIDDEN:    http.StatusForbidden,
	signflow.ENOTFOUND:     http.StatusNotFound,
	signflow.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	signflow.ERATELIMIT:    http.StatusTooManyRequests,
	signflow.EINTERNAL:     http.StatusInternalServerError,
	signflow.EUNAVAILABLE:  http.StatusServiceUnavailable,
}

// ErrorBody is the spec's error body. Path and Description are filled on the
// key interface only.
type ErrorBody struct {
	Code        int    `json:"code"`
	Status      string `json:"status"`
	Message     string `json:"message"`
	Timestamp   string `json:"timestamp"`
	Path        string `json:"path,omitempty"`
	Description string `json:"description,omitempty"`
}

// RetryAfterError is a rate-limit refusal that tells when to come back.
type RetryAfterError struct {
	Err   *signflow.Error
	After time.Duration
}

func (e *RetryAfterError) Error() string { return e.Err.Error() }

// Unwrap lets ErrorCode and ErrorMessage see the domain error.
func (e *RetryAfterError) Unwrap() error { return e.Err }

// ErrorHandler returns the echo error handler of one interface; withPath
// adds path and description (key interface and admin).
func ErrorHandler(log zerolog.Logger, withPath bool) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		code, msg := statusAndMessage(err)
		if code >= 500 {
			log.Error().Err(err).Str("request_id", RequestID(c)).Str("route", c.Path()).Msg("request failed")
		}
		SetRetryAfter(c, err)
		body := ErrorBody{Code: code, Status: strconv.Itoa(code) + " " + http.StatusText(code), Message: msg,
			Timestamp: time.Now().Format("2006-01-02T15:04:05-07:00")}
		if withPath {
			body.Path, body.Description = c.Request().URL.Path, msg
		}
		if c.Request().Method == http.MethodHead {
			c.NoContent(code)
			return
		}
		JSON(c, code, body)
	}
}

// SetRetryAfter sets the Retry-After header of a refusal that names a
// wait (in whole seconds, at least 1), for pages that write their own
// answer; the error handler does it for the others.
func SetRetryAfter(c echo.Context, err error) {
	if after, ok := retryAfter(err); ok {
		secs := int(after.Seconds() + 0.999)
		c.Response().Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	}
}

// retryAfter is the wait a refusal names: a RetryAfterError's, or that of
// a domain error with a RetryAfter method.
func retryAfter(err error) (time.Duration, bool) {
	var ra *RetryAfterError
	if errors.As(err, &ra) {
		return ra.After, true
	}
	var domain interface{ RetryAfter() time.Duration }
	if errors.As(err, &domain) {
		return domain.RetryAfter(), true
	}
	return 0, false
}

func statusAndMessage(err error) (int, string) {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		msg := http.StatusText(he.Code)
		switch he.Code {
		case http.StatusNotFound:
			msg = "No such route."
		case http.StatusRequestEntityTooLarge:
			msg = "The request body is larger than 1 MiB."
		case http.StatusMethodNotAllowed:
			msg = "Method not allowed on this route."
		}
		// echo's own errors carry the bare status text: keep ours for those.
		if s, ok := he.Message.(string); ok && he.Code < 500 && he.Code != http.StatusNotFound && s != http.StatusText(he.Code) {
			msg = s
		}
		return he.Code, msg
	}
	code := signflow.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	return status, signflow.ErrorMessage(err)
}
