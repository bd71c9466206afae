package server

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// Index answers GET / of a listener with what it serves there, so that a
// visitor who opens the bare address learns where to go instead of a 404.
type Index struct {
	Service  string            `json:"service"`
	Listener string            `json:"listener"`
	Serves   map[string]string `json:"serves"` // path -> what it is
}

// Register mounts GET / answering the index.
func (x Index) Register(e *echo.Echo) {
	e.GET("/", func(c echo.Context) error { return JSON(c, http.StatusOK, x) })
}
