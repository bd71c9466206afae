package main

import (
	"context"
	"contracts/internal/config"
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"contracts/server"
	"contracts/server/admin"
	"contracts/server/demo"
	"contracts/server/pdf"
	"contracts/signflow"
	"contracts/signflow/seal"
	"contracts/signflow/sms"
	"contracts/storage"
	"contracts/webhooks"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
	"github.com/spf13/pflag"
)

func serveCommand(ctx context.Context, args []string, stdout io.Writer) error {
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	config.AddFlags(fs)
	demo := fs.Bool("demo", false, "seed demo data once, print its credentials and serve the /demo page")
	if err := fs.Parse(args); err != nil {
		return err
	}
	cfg, err := config.Load(fs, os.Environ())
	if err != nil {
		return err
	}
	tuneRuntime()
	a, err := startAppliance(cfg, *demo, stdout, os.Stderr)
	if err != nil {
		return err
	}
	<-ctx.Done()
	a.log.Info().Msg("shutting down")
	return a.stop()
}

// worker is a background component owned by the appliance.
type worker interface {
	Start()
	Shutdown(ctx context.Context) error
}

// appliance is one running instance: listeners, workers and the database.
type appliance struct {
	cfg       *config.Config
	log       zerolog.Logger
	db        *storage.DB
	svc       *signflow.Service
	metrics   *server.Metrics
	listeners []*server.Listener
	workers   []worker
	now       signflow.TimeSource
	warnings  []string // said at start-up and by /readyz
	// texts sends cabinet login codes in the background.
	texts *sms.Queue
}

// startAppliance opens the data, builds every component and starts them;
// on any failure it undoes what it started.
func startAppliance(cfg *config.Config, demo bool, stdout, logOut io.Writer) (_ *appliance, err error) {
	// a is not the named result: "return nil, err" must not nil it before
	// the deferred clean-up below runs.
	a := &appliance{cfg: cfg, log: newLogger(cfg.Log, logOut), metrics: server.NewMetrics(), now: time.Now,
		warnings: startupWarnings(cfg, demo)}
	for _, w := range a.warnings {
		a.log.Warn().Msg(w)
	}
	if err := os.MkdirAll(cfg.Data.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("data.dir: %w", err)
	}
	masterKey, err := secretFromFile(cfg.Secrets.MasterKey, filepath.Join(cfg.Data.Dir, "master.key"))
	if err != nil {
		return nil, err
	}
	adminToken, err := secretFromFile(cfg.Admin.Token, filepath.Join(cfg.Data.Dir, "admin.token"))
	if err != nil {
		return nil, err
	}
	box, err := seal.New([]byte(masterKey))
	if err != nil {
		return nil, err
	}
	if a.db, err = storage.Open(cfg.DBPath(), storage.Options{BatchDelay: cfg.Data.BatchDelay}); err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			a.stop()
		}
	}()
	idps, eimzoVerifier, err := identityProviders(cfg, masterKey)
	if err != nil {
		return nil, err
	}
	tokenKey := sha256.Sum256([]byte("contracts token key\x00" + masterKey))
	sender := a.smsSender()
	a.texts = sms.NewQueue(sender, a.log, sms.QueueOptions{Timeout: cfg.SMS.HTTP.Timeout})
	a.svc = signflow.NewService(a.db, signflow.Options{Now: a.now, Secret: tokenKey[:], Sealer: box, SMS: sender,
		SessionTTL: cfg.Signing.SessionTTL, OTPTTL: cfg.Signing.OTPTTL, Methods: configuredMethods(cfg),
		Identity: idps, EIMZO: eimzoVerifier, SessionsPerPartyPerHour: cfg.RateLimit.SessionsPerPartyPerHour})
	if demo {
		if err := seedDemo(a.svc, a.db, stdout); err != nil {
			return nil, fmt.Errorf("demo seed: %w", err)
		}
	}
	pool, err := webhooks.New(a.db, box, a.metrics.Registry, webhooks.Options{Name: cfg.Service.Name, Log: a.log,
		Workers: cfg.Webhooks.Workers, AttemptTimeout: cfg.Webhooks.Timeout})
	if err != nil {
		return nil, err
	}
	a.db.OnDeliveryAdded(pool.Wake)
	deps := routeDeps{a: a, adminToken: adminToken, demo: demo, box: box, pool: pool, pdfs: pdf.NewCache(pdf.DefaultCacheBytes)}
	a.metrics.Registry.MustRegister(deps.pdfs.Collectors()...)
	t := server.Timeouts{ReadHeader: cfg.HTTP.ReadHeaderTimeout, Read: cfg.HTTP.ReadTimeout, Write: cfg.HTTP.WriteTimeout, Idle: cfg.HTTP.IdleTimeout}
	mk := func(name, addr string, tls config.TLSConfig, e *echo.Echo) {
		l := server.NewListener(name, addr, e, t, a.log)
		l.CertFile, l.KeyFile = tls.CertFile, tls.KeyFile
		a.listeners = append(a.listeners, l)
	}
	mk("embedded", cfg.Embedded.Listen, cfg.Embedded.TLS, deps.embedded())
	mk("key", cfg.Key.Listen, cfg.Key.TLS, deps.key())
	mk("admin", cfg.Admin.Listen, cfg.Admin.TLS, deps.admin())
	a.workers = deps.workers()
	for _, l := range a.listeners {
		if err := l.Start(); err != nil {
			return nil, err
		}
	}
	for _, w := range a.workers {
		w.Start()
	}
	return a, nil
}

// stop shuts down in order: HTTP (drained), workers, then the database.
func (a *appliance) stop() error {
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
	for _, w := range a.workers {
		keep(w.Shutdown(ctx))
	}
	if a.db != nil {
		keep(a.db.Close())
	}
	a.log.Info().Msg("stopped")
	return first
}

// startupWarnings are the settings that work but should not stay as they
// are on an appliance in use.
func startupWarnings(cfg *config.Config, demo bool) []string {
	var w []string
	if cfg.SMS.Provider == "console" && !demo {
		w = append(w, "sms.provider is console: no SMS is sent and every code is printed to this log; "+
			"to send codes through an SMS gateway set sms.provider: http and sms.http.url (CONTRACTS_SMS__PROVIDER, CONTRACTS_SMS__HTTP__URL)")
	}
	return w
}

func (a *appliance) smsSender() signflow.SMSSender {
	if a.cfg.SMS.Provider == "http" {
		return sms.NewHTTP(a.cfg.SMS.HTTP.URL, a.cfg.SMS.HTTP.Headers, a.cfg.SMS.HTTP.Timeout)
	}
	return sms.Console{Log: a.log}
}

func configuredMethods(cfg *config.Config) map[string]bool {
	return map[string]bool{
		signflow.MethodMyID:   cfg.Identity.MyID.AuthURL != "",
		signflow.MethodAbleID: cfg.Identity.AbleID.AuthURL != "",
		signflow.MethodEIMZO:  cfg.EIMZO.VerifyURL != "",
	}
}

// secretFromFile returns configured when set; else the secret in path,
// generated (32 random bytes, 0600) on first use.
func secretFromFile(configured, path string) (string, error) {
	if configured != "" {
		return configured, nil
	}
	data, err := os.ReadFile(path)
	if err == nil {
		if s := strings.TrimSpace(string(data)); len(s) >= 32 {
			return s, nil
		}
		return "", fmt.Errorf("%s: too short; delete it to generate a new one", path)
	}
	if !os.IsNotExist(err) {
		return "", err
	}
	s := signflow.RandomToken(32)
	if err := os.WriteFile(path, []byte(s+"\n"), 0o600); err != nil {
		return "", err
	}
	return s, nil
}

// routeDeps builds the echo instance of each listener.
type routeDeps struct {
	a          *appliance
	adminToken string
	demo       bool
	box        *seal.Box
	pool       *webhooks.Pool
	pdfs       *pdf.Cache // the contract PDFs of every listener
}

func (d routeDeps) admin() *echo.Echo {
	e := d.newEcho("admin", true)
	e.Use(admin.HostCheck(d.a.cfg.Admin.Listen, d.a.cfg.Admin.AllowedHosts))
	admin.Register(e, admin.Deps{Service: d.a.svc, DB: d.a.db, Token: d.adminToken, Metrics: d.a.metrics,
		Ready: func() error { _, err := d.a.db.SchemaVersion(); return err }, Redelivered: d.pool.Redelivered,
		Warnings: d.a.warnings})
	if d.demo {
		appID, _ := d.a.db.Meta(demoMarker)
		demo.Register(e, demo.Deps{Service: d.a.svc, AppID: appID, EmbeddedBaseURL: d.a.cfg.Embedded.BaseURL, ServiceName: d.a.cfg.Service.Name})
	}
	return e
}
