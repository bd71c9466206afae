package main

import (
	"contracts/server"
	"contracts/server/verify"

	"github.com/labstack/echo/v4"
)

// embedded builds the embedded listener's routes.
func (d routeDeps) embedded() *echo.Echo {
	e := server.NewEcho("embedded", d.a.log, d.a.metrics, false)
	verify.Register(e, verify.Deps{Service: d.a.svc})
	return e
}

// key builds the key listener's routes.
func (d routeDeps) key() *echo.Echo {
	return server.NewEcho("key", d.a.log, d.a.metrics, true)
}

// workers lists the background components.
func (d routeDeps) workers() []worker { return nil }
