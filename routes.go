package main

import (
	"contracts/server"

	"github.com/labstack/echo/v4"
)

// embedded builds the embedded listener's routes.
func (d routeDeps) embedded() *echo.Echo {
	return server.NewEcho("embedded", d.a.log, d.a.metrics, false)
}

// key builds the key listener's routes.
func (d routeDeps) key() *echo.Echo {
	return server.NewEcho("key", d.a.log, d.a.metrics, true)
}

// workers lists the background components.
func (d routeDeps) workers() []worker { return nil }
