package server

import (
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// RequireScope refuses, with 403, a caller that lacks the route's scope,
// before the request body is read. access is the authenticated caller as
// the calling interface knows it.
func RequireScope(scope string, access func(echo.Context) *signflow.Access) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if err := access(c).Require(scope); err != nil {
				return err
			}
			return next(c)
		}
	}
}

// Chain returns h inside mw, outermost first, built once: what echo's
// route middleware builds again on every request (a closure each).
func Chain(h echo.HandlerFunc, mw ...echo.MiddlewareFunc) echo.HandlerFunc {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}
