package server

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"contracts/server/tlscert"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// RequestID returns the id of the request being served, which the common
// middleware put in the answer's header (rather than in the context's store, whose
// map costs an allocation per request).
func RequestID(c echo.Context) string {
	return c.Response().Header().Get(echo.HeaderXRequestID)
}

// Common returns the middleware every listener runs: one function doing,
// in this order, the request id, Strict-Transport-Security over TLS, the
// access log with metrics, panic recovery (inside the access log, so a
// panicking request is logged and counted too) and the body limit. One
// function, not five: echo builds a listener's middleware around the
// handler again on every request, a closure each.
func Common(iface string, log zerolog.Logger, m *Metrics) []echo.MiddlewareFunc {
	cm := &common{iface: iface, log: log, m: m}
	return []echo.MiddlewareFunc{cm.wrap}
}

// common is what the common middleware needs; its closure holds only a
// pointer to it, the smallest object per request.
type common struct {
	iface string
	log   zerolog.Logger
	m     *Metrics
}

func (cm *common) wrap(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		id := req.Header.Get(echo.HeaderXRequestID)
		if !saneID(id) {
			id = signflow.RandomToken(12)
		}
		h := c.Response().Header()
		h[echo.HeaderXRequestID] = []string{id}
		tlscert.MarkHSTS(req, h)
		start := time.Now()
		if err := cm.serveSafely(c, next, id); err != nil {
			c.Error(err)
		}
		cm.logRequest(c, id, start)
		return nil
	}
}

// serveSafely runs next behind the body limit and turns a panic into an
// error, logged with the request id (http.ErrAbortHandler goes on up, as
// net/http expects).
func (cm *common) serveSafely(c echo.Context, next echo.HandlerFunc, id string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if r == http.ErrAbortHandler {
				panic(r)
			}
			perr, ok := r.(error)
			if !ok {
				perr = fmt.Errorf("%v", r)
			}
			// "stack" stays in the line, empty, as it always was.
			cm.log.Error().Err(perr).Str("request_id", id).Bytes("stack", nil).Msg("panic")
			err = perr
		}
	}()
	if err := limitBody(c); err != nil {
		return err
	}
	return next(c)
}

func saneID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, r := range id {
		if r < 0x21 || r > 0x7e {
			return false
		}
	}
	return true
}

// logRequest writes the request's access line and feeds the HTTP metrics.
// Paths that carry a secret (signing tokens, anything under /sign/) are
// logged as their route template.
func (cm *common) logRequest(c echo.Context, id string, start time.Time) {
	route := c.Path()
	if route == "" {
		route = "unmatched"
	}
	req, res := c.Request(), c.Response()
	path := req.URL.Path
	if strings.Contains(route, ":token") || strings.HasPrefix(path, "/sign/") {
		path = route
	}
	status, took := res.Status, time.Since(start)
	cm.m.observe(cm.iface, route, status, took)
	ev := cm.log.Info()
	if status >= 500 {
		ev = cm.log.Warn()
	}
	ev.Str("request_id", id).Str("interface", cm.iface).Str("method", req.Method).
		Str("path", path).Str("route", route).Int("status", status).Int64("bytes", res.Size).
		Dur("duration", took).Str("ip", c.RealIP()).Msg("request")
}

// uploads are the routes that take a file of up to MaxUpload, with room for
// the multipart framing around it, instead of MaxBody.
var uploads = map[string]bool{"POST /verify": true}

// limitBody refuses bodies over MaxBody (uploads: MaxUpload) with 413
// before reading them, and caps the reading of the others.
func limitBody(c echo.Context) error {
	req := c.Request()
	if req.Body == http.NoBody {
		return nil // nothing to limit (a GET, say): no reader to wrap
	}
	limit, size := int64(MaxBody), "1 MiB"
	if uploads[req.Method+" "+c.Path()] {
		limit, size = MaxUpload+64<<10, "10 MiB"
	}
	if req.ContentLength > limit {
		return signflow.Errorf(signflow.ETOOLARGE, "The request body is larger than %s.", size)
	}
	req.Body = http.MaxBytesReader(c.Response(), req.Body, limit)
	return nil
}

// NewEcho returns an echo instance for one interface with the common
// middleware and error handler installed. Its client address is the TCP
// peer (IPExtractor(nil)): without an extractor, echo's RealIP would believe
// any caller's X-Forwarded-For. Behind trusted proxies, replace it with
// IPExtractor(trusted).
func NewEcho(iface string, log zerolog.Logger, m *Metrics, withPath bool) *echo.Echo {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.IPExtractor = IPExtractor(nil)
	e.HTTPErrorHandler = ErrorHandler(log, withPath)
	e.Use(Common(iface, log, m)...)
	return e
}

func itoa(n int) string { return strconv.Itoa(n) }
