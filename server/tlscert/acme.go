package tlscert

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	stdlog "log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/crypto/acme"
	"golang.org/x/crypto/acme/autocert"
)

// ACME obtains, caches and renews certificates for the listeners that name
// domains. It answers TLS-ALPN-01 challenges on those listeners (through
// TLSConfig) and HTTP-01 challenges on its own HTTP listener, which
// redirects every other request for a configured domain to https.
type ACME struct {
	m     *autocert.Manager
	sites map[string]*site // by listener name
	hosts map[string]*site // by domain, lower case
	addr  string
	srv   *http.Server
	ln    net.Listener
	done  chan struct{}
	log   zerolog.Logger
}

// site is one listener under ACME.
type site struct {
	names map[string]bool
	first string
	port  string // public https port for redirects; "" is 443
}

// NewACME prepares ACME for the listeners that name domains (the others
// are ignored). cache keeps the account key and the certificates: DirCache
// on <data.dir>/acme, or the database. It checks the settings as Validate
// does and contacts no CA: the first certificate is asked for on the first
// TLS handshake for its name.
func NewACME(c ACMEConfig, cache autocert.Cache, log zerolog.Logger, ls ...Listener) (*ACME, error) {
	if err := Validate(c, ls...); err != nil {
		return nil, err
	}
	if cache == nil {
		return nil, errors.New("tlscert: ACME needs a certificate cache")
	}
	roots, err := caPool(c.CAFile)
	if err != nil {
		return nil, fmt.Errorf("acme.caFile: %w", err)
	}
	a := &ACME{sites: map[string]*site{}, hosts: map[string]*site{}, addr: c.httpListen(), done: make(chan struct{}),
		log: log.With().Str("component", "acme").Logger()}
	for _, l := range ls {
		if len(l.Domains) == 0 {
			continue
		}
		s := &site{names: map[string]bool{}, first: strings.ToLower(l.Domains[0])}
		if u, err := url.Parse(l.BaseURL); err == nil && u.Port() != "443" {
			s.port = u.Port()
		}
		for _, d := range l.Domains {
			d = strings.ToLower(d)
			s.names[d] = true
			a.hosts[d] = s
		}
		a.sites[l.Name] = s
	}
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	a.m = &autocert.Manager{
		Prompt:     autocert.AcceptTOS,
		Cache:      loggedCache{Cache: cache, log: a.log},
		HostPolicy: a.policy,
		Email:      c.Email,
		Client: &acme.Client{DirectoryURL: c.directory(), UserAgent: "contracts",
			HTTPClient: &http.Client{Transport: transport, Timeout: time.Minute}},
	}
	a.srv = &http.Server{Handler: a.m.HTTPHandler(http.HandlerFunc(a.redirect)),
		ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, WriteTimeout: 30 * time.Second,
		IdleTimeout: time.Minute, MaxHeaderBytes: 64 << 10,
		ErrorLog: stdlog.New(a.log.With().Str("listener", "acme-http").Logger(), "", 0)}
	return a, nil
}

// TLSConfig is the TLS configuration of the named listener, or nil when it
// does not use ACME. Serve it with http.Server.ServeTLS(ln, "", "").
func (a *ACME) TLSConfig(listener string) *tls.Config {
	s := a.sites[listener]
	if s == nil {
		return nil
	}
	return &tls.Config{
		MinVersion:     tls.VersionTLS12,
		GetCertificate: a.certificate(s),
		NextProtos:     []string{"h2", "http/1.1", acme.ALPNProto},
	}
}

// certificate serves the site's own names, a handshake without a name with
// its first name, and TLS-ALPN-01 challenges for any configured name (the
// CA connects to port 443, whichever listener that is).
func (a *ACME) certificate(s *site) func(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	return func(hello *tls.ClientHelloInfo) (*tls.Certificate, error) {
		name := normalHost(hello.ServerName)
		if name == "" {
			h := *hello
			h.ServerName, name = s.first, s.first
			hello = &h
		}
		challenge := len(hello.SupportedProtos) == 1 && hello.SupportedProtos[0] == acme.ALPNProto
		if !s.names[name] && !(challenge && a.hosts[name] != nil) {
			return nil, fmt.Errorf("tlscert: no certificate for %q on this listener", hello.ServerName)
		}
		cert, err := a.m.GetCertificate(hello)
		if err != nil && !challenge {
			a.log.Warn().Err(err).Str("domain", name).Msg("no certificate")
		}
		return cert, err
	}
}

// policy lets autocert ask for certificates for configured names only.
func (a *ACME) policy(_ context.Context, host string) error {
	if a.hosts[normalHost(host)] == nil {
		return fmt.Errorf("tlscert: %q is not a configured domain", host)
	}
	return nil
}

// redirect sends GET and HEAD for a configured domain to the same path and
// query over https. Other methods are refused rather than redirected: a
// client that posts over plain HTTP has already sent its body in clear and
// should be fixed, not silently helped.
func (a *ACME) redirect(w http.ResponseWriter, r *http.Request) {
	host := normalHost(r.Host)
	s := a.hosts[host]
	if s == nil {
		http.Error(w, "unknown host", http.StatusMisdirectedRequest)
		return
	}
	if s.port != "" {
		host = net.JoinHostPort(host, s.port)
	}
	target := "https://" + host + r.URL.RequestURI()
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "use "+target, http.StatusBadRequest)
		return
	}
	http.Redirect(w, r, target, http.StatusPermanentRedirect)
}

// normalHost is host without a port or a final dot, in lower case.
func normalHost(host string) string {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	return strings.ToLower(strings.TrimSuffix(host, "."))
}

// Start binds acme.httpListen, so a busy port fails start-up, and serves
// HTTP-01 challenges and the redirect there.
func (a *ACME) Start() error {
	ln, err := net.Listen("tcp", a.addr)
	if err != nil {
		return fmt.Errorf("acme.httpListen: cannot listen on %s for ACME HTTP-01 challenges: %w", a.addr, err)
	}
	a.ln = ln
	go func() {
		defer close(a.done)
		if err := a.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.log.Error().Err(err).Msg("acme http serve failed")
		}
	}()
	a.log.Info().Str("addr", ln.Addr().String()).Msg("listening for HTTP-01 challenges")
	return nil
}

// HTTPAddr is the address Start bound (useful with port 0).
func (a *ACME) HTTPAddr() string { return a.ln.Addr().String() }

// Shutdown stops the HTTP listener, draining requests in flight. Renewal
// timers belong to autocert, which cannot stop them; they do no harm.
func (a *ACME) Shutdown(ctx context.Context) error {
	if a.ln == nil {
		return nil
	}
	err := a.srv.Shutdown(ctx)
	<-a.done
	return err
}
