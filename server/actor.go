package server

import (
	"unicode/utf8"

	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// MaxUserAgent bounds the user agent an audit event keeps, in bytes.
const MaxUserAgent = 512

// Actor is the caller as the audit trail records them: the client IP and
// the user agent, cut to MaxUserAgent bytes on a character boundary. The
// service fills in the number.
func Actor(c echo.Context) signflow.Actor {
	return signflow.Actor{IP: c.RealIP(), UserAgent: cut(c.Request().UserAgent(), MaxUserAgent)}
}

// cut shortens s to at most n bytes without splitting a character.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
