package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/rs/zerolog"
)

// Timeouts are the explicit server time-outs of a listener.
type Timeouts struct {
	ReadHeader, Read, Write, Idle time.Duration
}

// Listener is one HTTP server: it listens synchronously, so a busy port
// fails start-up, then serves in its own goroutine.
type Listener struct {
	Name string
	Addr string
	// TLS, when set, serves HTTPS with its certificates (GetCertificate:
	// from ACME, or files re-read when they change).
	TLS  *tls.Config
	srv  *http.Server
	ln   net.Listener
	done chan struct{}
	log  zerolog.Logger
}

// NewListener prepares a listener for the handler.
func NewListener(name, addr string, h http.Handler, t Timeouts, log zerolog.Logger) *Listener {
	return &Listener{Name: name, Addr: addr, log: log, done: make(chan struct{}),
		srv: &http.Server{Handler: h, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, WriteTimeout: t.Write,
			IdleTimeout: t.Idle, MaxHeaderBytes: 64 << 10}}
}

// Start binds the address and starts serving.
func (l *Listener) Start() error {
	ln, err := net.Listen("tcp", l.Addr)
	if err != nil {
		return fmt.Errorf("%s listener: cannot listen on %s: %w", l.Name, l.Addr, err)
	}
	l.ln = ln
	l.srv.TLSConfig = l.TLS
	go func() {
		defer close(l.done)
		var err error
		if l.TLS != nil {
			err = l.srv.ServeTLS(ln, "", "")
		} else {
			err = l.srv.Serve(ln)
		}
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			l.log.Error().Err(err).Str("listener", l.Name).Msg("serve failed")
		}
	}()
	l.log.Info().Str("listener", l.Name).Str("addr", ln.Addr().String()).Bool("tls", l.TLS != nil).Msg("listening")
	return nil
}

// BoundAddr is the address actually bound (useful with port 0).
func (l *Listener) BoundAddr() string { return l.ln.Addr().String() }

// Shutdown stops accepting, drains requests in flight, and waits for Serve.
func (l *Listener) Shutdown(ctx context.Context) error {
	if l.ln == nil {
		return nil
	}
	err := l.srv.Shutdown(ctx)
	<-l.done
	return err
}
