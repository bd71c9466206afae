// Package appliance is one running contracts appliance: it opens the data
// directory, builds every component from the configuration, starts the
// listeners and background workers, and stops them in order.
package appliance

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"contracts/internal/config"
	"contracts/server"
	"contracts/server/document"
	"contracts/server/i18n"
	"contracts/server/pdf"
	"contracts/server/pdf/pades"
	"contracts/server/tlscert"
	"contracts/signflow"
	"contracts/signflow/secretbox"
	"contracts/signflow/sms"
	"contracts/webhooks"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// Options are what a start needs besides the configuration.
type Options struct {
	Demo   bool      // seed demo data once, print its credentials and serve /demo
	Stdout io.Writer // where the demo credentials are printed
	Log    io.Writer // where log lines go
}

// worker is a background component owned by the appliance.
type worker interface {
	Start()
	Shutdown(ctx context.Context) error
}

// Appliance is one running instance: listeners, workers and the database.
type Appliance struct {
	cfg       *config.Config
	log       zerolog.Logger
	logw      *logWriter
	db        *data
	svc       *signflow.Service
	metrics   *server.Metrics
	listeners []*server.Listener
	acme      *tlscert.ACME // HTTP-01 challenges and the redirect to https; nil without ACME
	workers   []worker
	now       signflow.TimeSource
	warnings  []string // said at start-up and by /readyz
	// texts sends texts in the background: cabinet login codes, signing
	// links, invitations and reminders.
	texts *sms.Queue
}

// Run starts the appliance, serves until ctx is done, then stops it.
func Run(ctx context.Context, cfg *config.Config, opt Options) error {
	a, err := Start(cfg, opt)
	if err != nil {
		return err
	}
	<-ctx.Done()
	a.log.Info().Msg("shutting down")
	return a.Stop()
}

// Start opens the data, builds every component and starts them; on any
// failure it undoes what it started.
func Start(cfg *config.Config, opt Options) (_ *Appliance, err error) {
	if opt.Stdout == nil {
		opt.Stdout = io.Discard
	}
	if opt.Log == nil {
		opt.Log = io.Discard
	}
	// a is not the named result: "return nil, err" must not nil it before
	// the deferred clean-up below runs.
	logw := newLogWriter(opt.Log)
	a := &Appliance{cfg: cfg, log: newLogger(cfg.Log, logw), logw: logw, metrics: server.NewMetrics(), now: time.Now,
		warnings: StartupWarnings(cfg, opt.Demo)}
	defer func() {
		if err != nil {
			logw.Close()
		}
	}()
	for _, w := range a.warnings {
		a.log.Warn().Msg(w)
	}
	// On postgres the data directory holds nothing: the secrets are in the
	// configuration (Validate), the rest in the database.
	if !cfg.Data.IsPostgres() {
		if err := os.MkdirAll(cfg.Data.Dir, 0o700); err != nil {
			return nil, fmt.Errorf("data.dir: %w", err)
		}
	}
	masterKey, err := secretFromFile(cfg.Secrets.MasterKey, cfg.DataPath(config.MasterKeyFile))
	if err != nil {
		return nil, err
	}
	adminToken, err := secretFromFile(cfg.Admin.Token, cfg.DataPath(config.AdminTokenFile))
	if err != nil {
		return nil, err
	}
	a.logAdminToken()
	box, err := secretbox.New([]byte(masterKey))
	if err != nil {
		return nil, err
	}
	if a.db, err = openData(cfg, box); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			a.Stop()
		}
	}()
	// Nodes sharing a database generate one seal between them.
	var sealID *pades.Identity
	err = a.db.once("seal", func() (err error) {
		sealID, err = pades.OpenIdentity(cfg.Seal.CertFile, cfg.Seal.KeyFile, a.db.blobs, cfg.Service.Name)
		return err
	})
	if err != nil {
		return nil, err
	}
	idps, eimzoVerifier, err := identityProviders(cfg, masterKey)
	if err != nil {
		return nil, err
	}
	tokenKey := sha256.Sum256([]byte("contracts token key\x00" + masterKey))
	sender := a.smsSender()
	a.texts = sms.NewQueue(sender, a.log, sms.QueueOptions{Timeout: smsQueueTimeout(cfg)})
	a.svc = signflow.NewService(a.db.store, signflow.Options{Now: a.now, Secret: tokenKey[:], Box: box, SMS: sender,
		Texts:      i18n.SMSTexts(smsReplacements(cfg)),
		SessionTTL: cfg.Signing.SessionTTL, OTPTTL: cfg.Signing.OTPTTL, Methods: configuredMethods(cfg),
		Identity: idps, EIMZO: eimzoVerifier, SessionsPerPartyPerHour: cfg.RateLimit.SessionsPerPartyPerHour,
		Queue: a.texts, Reminders: cfg.Signing.Reminders, RemindEvery: cfg.Signing.RemindEvery,
		CodesPerPartyPerDay: cfg.RateLimit.CodesPerPartyPerDay, WrongCodesPerPartyPerDay: cfg.RateLimit.WrongCodesPerPartyPerDay,
		CountryCodes: cfg.SMS.CountryCodes(),

		PayLinks:            signflow.PayLinkHosts{Payme: cfg.Payments.Payme.CheckoutURL, Click: cfg.Payments.Click.PayURL},
		PaymentRemindBefore: cfg.Payments.RemindBefore, CabinetURL: strings.TrimRight(cfg.Key.BaseURL, "/") + "/cabinet", Money: document.TextMoney})
	if opt.Demo {
		if err := a.db.once("demo", func() error { return seedDemo(a.svc, a.db.store, opt.Stdout) }); err != nil {
			return nil, fmt.Errorf("demo seed: %w", err)
		}
	}
	pool, err := webhooks.New(a.db.store, box, a.metrics.Registry, webhooks.Options{Name: cfg.Service.Name, Log: a.log,
		Workers: cfg.Webhooks.Workers, PerTarget: cfg.Webhooks.PerTargetConcurrency, AttemptTimeout: cfg.Webhooks.Timeout, Lease: cfg.Webhooks.Lease})
	if err != nil {
		return nil, err
	}
	a.db.OnDeliveryAdded(pool.Wake)
	sealer, err := a.sealer(sealID)
	if err != nil {
		return nil, err
	}
	deps := routeDeps{a: a, adminToken: adminToken, demo: opt.Demo, box: box, pool: pool, sealID: sealID,
		pdfs: pdf.NewSealedCache(pdf.DefaultCacheBytes, sealer)}
	a.metrics.Registry.MustRegister(deps.pdfs.Collectors()...)
	a.metrics.Registry.MustRegister(a.db.collectors...)
	tlsConfigs, err := a.tlsConfigs()
	if err != nil {
		return nil, err
	}
	t := server.Timeouts{ReadHeader: cfg.HTTP.ReadHeaderTimeout, Read: cfg.HTTP.ReadTimeout, Write: cfg.HTTP.WriteTimeout, Idle: cfg.HTTP.IdleTimeout}
	mk := func(name, addr string, e *echo.Echo) {
		l := server.NewListener(name, addr, e, t, a.log)
		l.TLS = tlsConfigs[name]
		a.listeners = append(a.listeners, l)
	}
	mk("embedded", cfg.Embedded.Listen, deps.embedded())
	mk("key", cfg.Key.Listen, deps.key())
	mk("admin", cfg.Admin.Listen, deps.admin())
	a.workers = deps.workers()
	for _, l := range a.listeners {
		if err := l.Start(); err != nil {
			return nil, err
		}
	}
	if opt.Demo {
		// The one address a newcomer needs, in words as well as in the log.
		fmt.Fprintf(opt.Stdout, "demo: open http://%s/demo in a browser; SMS codes are printed in the log below\n",
			dialable(a.listeners[len(a.listeners)-1].BoundAddr()))
	}
	if a.acme != nil {
		if err := a.acme.Start(); err != nil {
			return nil, err
		}
	}
	for _, w := range a.workers {
		w.Start()
	}
	return a, nil
}

// sealer seals the contract PDFs with the seal identity, time-stamped by
// seal.tsaURL when set, the tokens kept in the database.
func (a *Appliance) sealer(id *pades.Identity) (*pades.Sealer, error) {
	var tsa *pades.TSA
	if a.cfg.Seal.TSAURL != "" {
		tsa = &pades.TSA{URL: a.cfg.Seal.TSAURL}
	}
	s, err := pades.NewSealer(id, tsa, a.db.store)
	if err != nil {
		return nil, err
	}
	a.log.Info().Str("subject", id.Certificate().Subject.String()).Str("fingerprint", id.Fingerprint()).
		Bool("generated", a.cfg.Seal.CertFile == "").Str("tsa", a.cfg.Seal.TSAURL).Msg("document seal")
	return s, nil
}

// Stop shuts down in order: HTTP (drained; ACME's listener too), workers,
// then the database.
func (a *Appliance) Stop() error {
	ctx, cancel := context.WithTimeout(context.Background(), a.cfg.HTTP.ShutdownTimeout)
	defer cancel()
	var first error
	keep := func(err error) {
		if err != nil && first == nil {
			first = err
		}
	}
	for _, l := range a.listeners {
		keep(l.Shutdown(ctx))
	}
	if a.acme != nil {
		keep(a.acme.Shutdown(ctx))
	}
	for _, w := range a.workers {
		keep(w.Shutdown(ctx))
	}
	if a.db != nil {
		keep(a.db.Close())
	}
	a.log.Info().Msg("stopped")
	a.logw.Close()
	return first
}

// logAdminToken says where the admin token is (never the token): the
// console's login and "contracts admin" away from the data directory need it.
func (a *Appliance) logAdminToken() {
	where := "admin.token in the configuration"
	if a.cfg.Admin.Token == "" {
		where = a.cfg.DataPath(config.AdminTokenFile)
		if abs, err := filepath.Abs(where); err == nil {
			where = abs
		}
	}
	a.log.Info().Str("adminToken", where).Msg("admin token: read it from " + where + " (the console's login, contracts admin)")
}

// dialable is a listen address as a browser on this machine reaches it.
func dialable(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

// StartupWarnings are the settings that work but should not stay as they
// are on an appliance in use.
func StartupWarnings(cfg *config.Config, demo bool) []string {
	var w []string
	if cfg.SMS.Provider == "console" && !demo {
		w = append(w, "sms.provider is console: no SMS is sent and every code is printed to this log; "+
			"to send codes through an SMS gateway set sms.provider: http and sms.http.url (CONTRACTS_SMS__PROVIDER, CONTRACTS_SMS__HTTP__URL)")
	}
	return w
}

// smsReplacements are sms.texts as package i18n takes them.
func smsReplacements(cfg *config.Config) map[string]map[string]string {
	out := map[string]map[string]string{}
	for kind, byLang := range cfg.SMS.Texts {
		out[kind] = byLang
	}
	return out
}
