package server

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"net/http"

	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Headers of idempotent requests.
const (
	HeaderIdempotencyKey = "Idempotency-Key"
	HeaderReplayed       = "Idempotent-Replayed"
)

// keptHeaders are the answer's headers a replay repeats.
var keptHeaders = []string{echo.HeaderContentType, echo.HeaderLocation, echo.HeaderCacheControl}

// Idempotent makes a POST sent with an Idempotency-Key answer once: the
// first answer for (caller, key) is kept and replayed for a repeat of the
// same request; the key with another request is 400; a repeat while the
// first runs is 409. 5xx answers are not kept. caller names who asks (an
// app, an API key); it runs after authentication. The key is claimed in
// the store before the handler runs, so duplicates on any node run once.
func Idempotent(svc *signflow.Service, caller func(echo.Context) string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			key, sent := req.Header[HeaderIdempotencyKey]
			if req.Method != http.MethodPost || !sent {
				return next(c)
			}
			if len(key) != 1 {
				return signflow.Errorf(signflow.EINVALID, "Idempotency-Key: send it once")
			}
			if err := signflow.CheckIdempotencyKey(key[0]); err != nil {
				return err
			}
			body, err := ReadBody(c)
			if err != nil {
				return err
			}
			req.Body = io.NopCloser(bytes.NewReader(body))
			sum := sha256.New()
			io.WriteString(sum, req.Method+"\x00"+req.URL.RequestURI()+"\x00")
			sum.Write(body)
			r := &signflow.IdempotentRequest{Caller: caller(c), Key: key[0], Fingerprint: sum.Sum(nil)}
			ctx := context.WithoutCancel(req.Context())
			held, err := svc.ClaimRequest(ctx, r)
			if err != nil {
				return err
			}
			if held != nil {
				return replay(c, held, r.Fingerprint)
			}
			return record(c, svc, r, next)
		}
	}
}

// replay answers a repeat from the record held for its key.
func replay(c echo.Context, held *signflow.IdempotentRequest, fingerprint []byte) error {
	if !bytes.Equal(held.Fingerprint, fingerprint) {
		return signflow.Errorf(signflow.EINVALID,
			"Idempotency-Key: this key was used for another request (method, path or body); use a new key")
	}
	if !held.Done {
		c.Response().Header().Set("Retry-After", "1")
		return echo.NewHTTPError(http.StatusConflict, "A request with this Idempotency-Key is still being processed; retry later.")
	}
	h := c.Response().Header()
	for name, v := range held.Header {
		h.Set(name, v)
	}
	h.Set(HeaderReplayed, "true")
	c.Response().WriteHeader(held.Status)
	_, err := c.Response().Write(held.Body)
	return err
}

// record runs the request, writes its answer and keeps it, or frees the
// key for an answer not to be kept (5xx, a panic, none at all).
func record(c echo.Context, svc *signflow.Service, r *signflow.IdempotentRequest, next echo.HandlerFunc) error {
	ctx := context.WithoutCancel(c.Request().Context())
	res := c.Response()
	tee := &teeWriter{ResponseWriter: res.Writer}
	res.Writer = tee
	kept := false
	defer func() {
		res.Writer = tee.ResponseWriter
		if !kept {
			svc.ReleaseRequest(ctx, r.Caller, r.Key)
		}
	}()
	if err := next(c); err != nil {
		c.Error(err) // the answer is written here, so that it can be kept
	}
	if !res.Committed || res.Status >= 500 || tee.over {
		return nil
	}
	r.Status, r.Body, r.Header = res.Status, tee.buf.Bytes(), map[string]string{}
	for _, name := range keptHeaders {
		if v := res.Header().Get(name); v != "" {
			r.Header[name] = v
		}
	}
	if err := svc.FinishRequest(ctx, r); err != nil {
		return nil // the caller has its answer; the key is freed
	}
	kept = true
	return nil
}

// teeWriter copies an answer's body as it goes out, up to MaxBody.
type teeWriter struct {
	http.ResponseWriter
	buf  bytes.Buffer
	over bool
}

func (w *teeWriter) Write(p []byte) (int, error) {
	if !w.over && w.buf.Len()+len(p) <= MaxBody {
		w.buf.Write(p)
	} else {
		w.over = true
		w.buf.Reset()
	}
	return w.ResponseWriter.Write(p)
}
