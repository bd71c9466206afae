package server

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// discardWriter is a ResponseWriter that keeps nothing but a header map
// it clears for the next request, so that a benchmark counts the
// middleware's work, not a recorder's.
type discardWriter struct{ h http.Header }

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *discardWriter) WriteHeader(int)             {}

// BenchmarkCommon is one GET through a listener's common middleware (request
// id, access log to a JSON logger, metrics, recovery, body limit) to a
// handler answering a JSON blob: the per-request cost every route pays.
//
//	go test -run '^$' -bench Common -benchmem ./server/
func BenchmarkCommon(b *testing.B) {
	e := NewEcho("embedded", zerolog.New(io.Discard), NewMetrics(), false)
	answer := []byte(`{"id":"c1","status":"DRAFT"}`)
	e.GET("/v1/contracts/:id", func(c echo.Context) error { return JSONBlob(c, http.StatusOK, answer) })
	req := httptest.NewRequest(http.MethodGet, "/v1/contracts/c1", nil)
	req.Header.Set("Authorization", "Bearer x")
	w := &discardWriter{h: http.Header{}}
	b.ReportAllocs()
	for b.Loop() {
		clear(w.h)
		e.ServeHTTP(w, req)
	}
}
