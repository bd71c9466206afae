package server

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"contracts/signflow"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/rs/zerolog"
)

// RequestID returns the id of the request being served, which requestID
// put in the answer's header (rather than in the context's store, whose
// map costs an allocation per request).
func RequestID(c echo.Context) string {
	return c.Response().Header().Get(echo.HeaderXRequestID)
}

// Common returns the middleware every listener runs, outermost first:
// request id, access log with metrics, panic recovery (inside the access
// log, so a panicking request is logged and counted too), and the body limit.
func Common(iface string, log zerolog.Logger, m *Metrics) []echo.MiddlewareFunc {
	return []echo.MiddlewareFunc{
		requestID,
		accessLog(iface, log, m),
		middleware.RecoverWithConfig(middleware.RecoverConfig{DisablePrintStack: true,
			LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
				log.Error().Err(err).Str("request_id", RequestID(c)).Bytes("stack", stack).Msg("panic")
				return err
			}}),
		bodyLimit,
	}
}

// requestID takes a sane X-Request-Id from the caller or makes one, and echoes it.
func requestID(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		id := c.Request().Header.Get(echo.HeaderXRequestID)
		if !saneID(id) {
			id = signflow.RandomToken(12)
		}
		c.Response().Header()[echo.HeaderXRequestID] = []string{id}
		return next(c)
	}
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

// accessLog writes one line per request and feeds the HTTP metrics. Paths
// that carry a secret (signing tokens, anything under /sign/) are logged as
// their route template.
func accessLog(iface string, log zerolog.Logger, m *Metrics) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				c.Error(err)
			}
			route := c.Path()
			if route == "" {
				route = "unmatched"
			}
			path := c.Request().URL.Path
			if strings.Contains(route, ":token") || strings.HasPrefix(path, "/sign/") {
				path = route
			}
			status, took := c.Response().Status, time.Since(start)
			m.observe(iface, route, status, took)
			ev := log.Info()
			if status >= 500 {
				ev = log.Warn()
			}
			ev.Str("request_id", RequestID(c)).Str("interface", iface).Str("method", c.Request().Method).
				Str("path", path).Str("route", route).Int("status", status).Int64("bytes", c.Response().Size).
				Dur("duration", took).Str("ip", c.RealIP()).Msg("request")
			return nil
		}
	}
}

// uploads are the routes that take a file of up to MaxUpload, with room for
// the multipart framing around it, instead of MaxBody.
var uploads = map[string]bool{"POST /verify": true}

// bodyLimit refuses bodies over MaxBody (uploads: MaxUpload) with 413
// before reading them.
func bodyLimit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.Body == http.NoBody {
			return next(c) // nothing to limit (a GET, say): no reader to wrap
		}
		limit, size := int64(MaxBody), "1 MiB"
		if uploads[req.Method+" "+c.Path()] {
			limit, size = MaxUpload+64<<10, "10 MiB"
		}
		if req.ContentLength > limit {
			return signflow.Errorf(signflow.ETOOLARGE, "The request body is larger than %s.", size)
		}
		req.Body = http.MaxBytesReader(c.Response(), req.Body, limit)
		return next(c)
	}
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
