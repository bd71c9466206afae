package tlscert

import "github.com/labstack/echo/v4"

// HSTSValue tells browsers to use https only for this host for a year.
// Without includeSubDomains: the appliance speaks for its own names, not
// for its neighbours'.
const HSTSValue = "max-age=31536000"

// HSTS sends Strict-Transport-Security on every response that goes out
// over TLS, errors included (browsers ignore the header over plain HTTP,
// so it is not sent there).
func HSTS(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Request().TLS != nil {
			c.Response().Header().Set("Strict-Transport-Security", HSTSValue)
		}
		return next(c)
	}
}
