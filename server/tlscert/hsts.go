package tlscert

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// HSTSValue tells browsers to use https only for this host for a year.
// Without includeSubDomains: the appliance speaks for its own names, not
// for its neighbours'.
const HSTSValue = "max-age=31536000"

// HSTS sends Strict-Transport-Security on every response that goes out
// over TLS, errors included (browsers ignore the header over plain HTTP,
// so it is not sent there). The listeners' common middleware calls
// MarkHSTS itself.
func HSTS(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		MarkHSTS(c.Request(), c.Response().Header())
		return next(c)
	}
}

// MarkHSTS sets Strict-Transport-Security in h when r came over TLS.
func MarkHSTS(r *http.Request, h http.Header) {
	if r.TLS != nil {
		h["Strict-Transport-Security"] = []string{HSTSValue}
	}
}
