// Package config is the appliance's configuration: one typed struct with
// built-in defaults, loaded once (defaults < YAML file < CONTRACTS_
// environment < flags) and validated, then passed down.
package config

import (
	"net"
	"path/filepath"
	"strconv"
	"time"

	"contracts/server"
	"contracts/server/tlscert"
)

// Config is the whole configuration, loaded once at start.
type Config struct {
	Service   ServiceConfig   `koanf:"service"`
	Data      DataConfig      `koanf:"data"`
	Embedded  ListenerConfig  `koanf:"embedded"`
	Key       ListenerConfig  `koanf:"key"`
	Admin     AdminConfig     `koanf:"admin"`
	ACME      ACMEConfig      `koanf:"acme"`
	HTTP      HTTPConfig      `koanf:"http"`
	Signing   SigningConfig   `koanf:"signing"`
	SMS       SMSConfig       `koanf:"sms"`
	Identity  IdentityConfig  `koanf:"identity"`
	EIMZO     EIMZOConfig     `koanf:"eimzo"`
	Webhooks  WebhooksConfig  `koanf:"webhooks"`
	RateLimit RateLimitConfig `koanf:"ratelimit"`
	Secrets   SecretsConfig   `koanf:"secrets"`
	Cabinet   CabinetConfig   `koanf:"cabinet"`
	Payments  PaymentsConfig  `koanf:"payments"`
	Seal      SealConfig      `koanf:"seal"`
	Log       LogConfig       `koanf:"log"`
}

// ServiceConfig names the service in webhook headers and iframe messages.
type ServiceConfig struct {
	Name string `koanf:"name"`
}

// DataConfig says where the database lives: a bbolt file in Dir, or a
// PostgreSQL database that several nodes share (docs/operations.md).
type DataConfig struct {
	Dir        string         `koanf:"dir"`
	BatchDelay time.Duration  `koanf:"batchDelay"`
	Driver     string         `koanf:"driver"`
	Postgres   PostgresConfig `koanf:"postgres"`
}

// Storage engines of data.driver.
const (
	DriverBbolt    = "bbolt"
	DriverPostgres = "postgres"
)

// PostgresConfig is the shared database of data.driver postgres.
type PostgresConfig struct {
	URL string `koanf:"url"` // a libpq URL or key=value string
	// MaxConns is this node's most connections at once: requests in
	// flight, the webhook pool's claimer and writer, the sweeper's lock.
	MaxConns int `koanf:"maxConns"`
	// Timeout bounds each transaction, from the wait for a connection to
	// the commit: a stuck database fails requests instead of holding them.
	Timeout time.Duration `koanf:"timeout"`
}

// IsPostgres reports whether the data lives in PostgreSQL.
func (d DataConfig) IsPostgres() bool { return d.Driver == DriverPostgres }

// TLSConfig turns on TLS for a public listener: with certificate files
// (both set, re-read when they change), or with certificates from ACME for
// the names in ACME.Domains.
type TLSConfig struct {
	CertFile string         `koanf:"certFile"`
	KeyFile  string         `koanf:"keyFile"`
	ACME     ACMEListConfig `koanf:"acme"`
}

// ACMEListConfig is a listener's part of ACME: the names it serves.
type ACMEListConfig struct {
	Domains []string `koanf:"domains"`
}

// FileTLSConfig turns on TLS with certificate files only: the admin
// listener's, which stays on loopback or a private network where no ACME
// CA can reach it (admin.tls.acme is an unknown key).
type FileTLSConfig struct {
	CertFile string `koanf:"certFile"`
	KeyFile  string `koanf:"keyFile"`
}

// ListenerConfig is a public listener: its address and its outside URL.
type ListenerConfig struct {
	Listen string `koanf:"listen"`
	// BaseURL is decided after loading when it is not set: https://<first
	// ACME domain> with ACME on, else the listener's default.
	BaseURL string    `koanf:"baseURL"`
	TLS     TLSConfig `koanf:"tls"`
}

// AdminConfig is the local admin listener and its bearer token.
type AdminConfig struct {
	Listen string        `koanf:"listen"`
	Token  string        `koanf:"token"`
	TLS    FileTLSConfig `koanf:"tls"`
	// AllowedHosts are names (or addresses) the listener answers to besides
	// loopback and its own address, e.g. a LAN name of the console.
	AllowedHosts []string `koanf:"allowedHosts"`
}

// ACMEConfig is the ACME account and CA shared by the listeners that name
// domains (docs/https.md).
type ACMEConfig struct {
	Email        string `koanf:"email"`
	DirectoryURL string `koanf:"directoryURL"`
	CAFile       string `koanf:"caFile"`
	HTTPListen   string `koanf:"httpListen"`
}

// TLSCert is the section as package tlscert takes it.
func (a ACMEConfig) TLSCert() tlscert.ACMEConfig {
	return tlscert.ACMEConfig{Email: a.Email, DirectoryURL: a.DirectoryURL, CAFile: a.CAFile, HTTPListen: a.HTTPListen}
}

// HTTPConfig holds what all listeners share: server time-outs and the
// reverse proxies whose X-Forwarded-For names the client.
type HTTPConfig struct {
	ReadHeaderTimeout time.Duration `koanf:"readHeaderTimeout"`
	ReadTimeout       time.Duration `koanf:"readTimeout"`
	WriteTimeout      time.Duration `koanf:"writeTimeout"`
	IdleTimeout       time.Duration `koanf:"idleTimeout"`
	ShutdownTimeout   time.Duration `koanf:"shutdownTimeout"`
	TrustedProxies    []string      `koanf:"trustedProxies"`
}

// ProxyNets is TrustedProxies parsed (Validate has checked them).
func (h HTTPConfig) ProxyNets() []*net.IPNet {
	nets, _ := server.ParseTrustedProxies(h.TrustedProxies)
	return nets
}

// SigningConfig sets session and SMS-code lifetimes.
type SigningConfig struct {
	SessionTTL time.Duration `koanf:"sessionTTL"`
	OTPTTL     time.Duration `koanf:"otpTTL"`
	// Reminders is how many reminders a notified signer gets, one every
	// RemindEvery (0: none).
	Reminders   int           `koanf:"reminders"`
	RemindEvery time.Duration `koanf:"remindEvery"`
}

// SMSConfig picks the SMS provider.
type SMSConfig struct {
	Provider   string              `koanf:"provider"`
	HTTP       SMSHTTPConfig       `koanf:"http"`
	Eskiz      EskizConfig         `koanf:"eskiz"`
	PlayMobile PlayMobileConfig    `koanf:"playmobile"`
	Texts      map[string]LangText `koanf:"texts"` // sms.texts.<kind>.<lang>: replacements of the built-in texts
	// AllowedCountryCodes are the calling codes a client's or owner's
	// phone may have; empty allows any.
	AllowedCountryCodes []int `koanf:"allowedCountryCodes"`
}

// CountryCodes are AllowedCountryCodes as the digits phones start with.
func (c SMSConfig) CountryCodes() []string {
	out := make([]string, len(c.AllowedCountryCodes))
	for i, n := range c.AllowedCountryCodes {
		out[i] = strconv.Itoa(n)
	}
	return out
}

// LangText is one text per language.
type LangText map[string]string

// EskizConfig is an Eskiz account (notify.eskiz.uz).
type EskizConfig struct {
	BaseURL     string `koanf:"baseURL"`
	Email       string `koanf:"email"`
	Password    string `koanf:"password"`
	From        string `koanf:"from"`
	CallbackURL string `koanf:"callbackURL"`
}

// PlayMobileConfig is a Play Mobile broker account.
type PlayMobileConfig struct {
	BaseURL    string `koanf:"baseURL"`
	Login      string `koanf:"login"`
	Password   string `koanf:"password"`
	Originator string `koanf:"originator"`
}

// SMSHTTPConfig is the generic HTTP SMS gateway.
type SMSHTTPConfig struct {
	URL     string            `koanf:"url"`
	Headers map[string]string `koanf:"headers"`
	Timeout time.Duration     `koanf:"timeout"`
}

// IdentityConfig holds the face-verification providers.
type IdentityConfig struct {
	MyID   IDPConfig `koanf:"myid"`
	AbleID IDPConfig `koanf:"ableid"`
}

// IDPConfig is one identity provider: an OAuth2 flow, off while AuthURL
// is empty, or (MyID only) MyID's web check, on with a clientId.
type IDPConfig struct {
	Flow         string            `koanf:"flow"`       // oauth or web
	BaseURL      string            `koanf:"baseURL"`    // web: MyID's API
	WebURL       string            `koanf:"webURL"`     // web: MyID's page
	AuthParams   map[string]string `koanf:"authParams"` // oauth: added to the authorization URL
	AuthURL      string            `koanf:"authURL"`
	TokenURL     string            `koanf:"tokenURL"`
	UserinfoURL  string            `koanf:"userinfoURL"`
	ClientID     string            `koanf:"clientId"`
	ClientSecret string            `koanf:"clientSecret"`
	Scope        string            `koanf:"scope"`
	InClaim      string            `koanf:"inClaim"`
	Timeout      time.Duration     `koanf:"timeout"`
}

// On tells whether the provider is configured.
func (p IDPConfig) On() bool {
	if p.Flow == "web" {
		return p.ClientID != ""
	}
	return p.AuthURL != ""
}

// EIMZOConfig is the E-IMZO verification server; off while empty.
type EIMZOConfig struct {
	VerifyURL     string        `koanf:"verifyURL"`
	APIKey        string        `koanf:"apiKey"` // the E-IMZO API key issued for embedded.baseURL's domain
	Host          string        `koanf:"host"`   // Host header for the E-IMZO server; default: embedded.baseURL's host
	Timeout       time.Duration `koanf:"timeout"`
	SkipTimestamp bool          `koanf:"skipTimestamp"`
}

// WebhooksConfig tunes delivery.
type WebhooksConfig struct {
	Workers int           `koanf:"workers"`
	Timeout time.Duration `koanf:"timeout"`
	// PerTargetConcurrency bounds the workers one target holds.
	PerTargetConcurrency int `koanf:"perTargetConcurrency"`
	// Lease is how long a node holds the deliveries it claimed before
	// another node may take them (a node that died); 0: long enough for
	// every attempt the node may have in flight.
	Lease time.Duration `koanf:"lease"`
}

// RateLimitConfig holds request limits; 0 means no limit.
type RateLimitConfig struct {
	TokenPerMinute          int `koanf:"tokenPerMinute"`
	OTPPerMinute            int `koanf:"otpPerMinute"`
	VerifyPerMinute         int `koanf:"verifyPerMinute"`
	KeyPerSecond            int `koanf:"keyPerSecond"`
	AppPerSecond            int `koanf:"appPerSecond"`
	SessionsPerPartyPerHour int `koanf:"sessionsPerPartyPerHour"`
	// Per creator's tenant and signer number, across all contracts.
	CodesPerPartyPerDay      int `koanf:"codesPerPartyPerDay"`
	WrongCodesPerPartyPerDay int `koanf:"wrongCodesPerPartyPerDay"`
	// Cabinet login codes a day per number, from unknown browsers and per known one.
	CabinetCodesPerNumberPerDay int `koanf:"cabinetCodesPerNumberPerDay"`
	// Uploads to POST /verify read and checked at once.
	VerifyConcurrent int `koanf:"verifyConcurrent"`
}

// CabinetConfig tunes the parties' own web page on the key listener.
type CabinetConfig struct {
	IdleTimeout time.Duration `koanf:"idleTimeout"`
}

// PaymentsConfig holds the hosts of the providers' pay pages that pay
// links lead to, so that a sandbox can stand in for them, and the payment
// reminders.
type PaymentsConfig struct {
	Payme struct {
		CheckoutURL string `koanf:"checkoutURL"`
	} `koanf:"payme"`
	Click struct {
		PayURL string `koanf:"payURL"`
	} `koanf:"click"`
	// RemindBefore is how long before each open item of an ACTIVE
	// contract's schedule its buyer is texted (0: never).
	RemindBefore time.Duration `koanf:"remindBefore"`
}

// SealConfig is the certificate that seals every contract PDF and the
// time-stamp authority that dates the seals (docs/sealed-documents.md).
type SealConfig struct {
	// CertFile and KeyFile are a PEM certificate (chain) and its key; both
	// empty: a self-signed seal generated into the data directory.
	CertFile string `koanf:"certFile"`
	KeyFile  string `koanf:"keyFile"`
	// TSAURL is an RFC 3161 time-stamp authority; empty: no time-stamps.
	TSAURL string `koanf:"tsaURL"`
}

// SecretsConfig holds the master key that encrypts webhook secrets.
type SecretsConfig struct {
	MasterKey string `koanf:"masterKey"`
}

// LogConfig sets the log level and format (json or console).
type LogConfig struct {
	Level  string `koanf:"level"`
	Format string `koanf:"format"`
}

// Base URLs of the public listeners when neither baseURL nor ACME says
// otherwise.
const (
	DefaultEmbeddedBaseURL = "http://localhost:8080"
	DefaultKeyBaseURL      = "http://localhost:8081"
)

// Default is the built-in configuration. The base URLs are left empty:
// they depend on other keys and are decided after loading (fillDerived).
func Default() Config {
	c := Config{
		Service: ServiceConfig{Name: "Contracts"},
		Data: DataConfig{Dir: "./data", BatchDelay: 2 * time.Millisecond, Driver: DriverBbolt,
			Postgres: PostgresConfig{MaxConns: 20, Timeout: 15 * time.Second}},
		Embedded: ListenerConfig{Listen: ":8080", TLS: TLSConfig{ACME: ACMEListConfig{Domains: []string{}}}},
		Key:      ListenerConfig{Listen: ":8081", TLS: TLSConfig{ACME: ACMEListConfig{Domains: []string{}}}},
		Admin:    AdminConfig{Listen: "127.0.0.1:8082", AllowedHosts: []string{}},
		ACME:     ACMEConfig{DirectoryURL: tlscert.LetsEncrypt, HTTPListen: tlscert.DefaultHTTPListen},
		HTTP: HTTPConfig{ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 15 * time.Second, WriteTimeout: 30 * time.Second,
			IdleTimeout: 60 * time.Second, ShutdownTimeout: 15 * time.Second, TrustedProxies: []string{}},
		Signing: SigningConfig{SessionTTL: 30 * time.Minute, OTPTTL: 5 * time.Minute, Reminders: 2, RemindEvery: 24 * time.Hour},
		SMS: SMSConfig{Provider: "console", HTTP: SMSHTTPConfig{Headers: map[string]string{}, Timeout: 10 * time.Second},
			Eskiz:      EskizConfig{BaseURL: "https://notify.eskiz.uz/api", From: "4546"},
			PlayMobile: PlayMobileConfig{BaseURL: "https://send.smsxabar.uz/broker-api", Originator: "3700"},
			Texts:      map[string]LangText{}, AllowedCountryCodes: []int{998}},
		Identity: IdentityConfig{
			MyID: IDPConfig{Flow: "oauth", BaseURL: "https://myid.uz", WebURL: "https://web.myid.uz", AuthParams: map[string]string{},
				InClaim: "pinfl", Timeout: 10 * time.Second},
			AbleID: IDPConfig{Flow: "oauth", AuthParams: map[string]string{}, InClaim: "pinfl", Timeout: 10 * time.Second}},
		EIMZO:    EIMZOConfig{Timeout: 10 * time.Second},
		Webhooks: WebhooksConfig{Workers: 32, Timeout: 10 * time.Second, PerTargetConcurrency: 4},
		RateLimit: RateLimitConfig{TokenPerMinute: 60, OTPPerMinute: 30, VerifyPerMinute: 30, KeyPerSecond: 100, AppPerSecond: 100,
			SessionsPerPartyPerHour: 10, CodesPerPartyPerDay: 20, WrongCodesPerPartyPerDay: 10,
			VerifyConcurrent: 2, CabinetCodesPerNumberPerDay: 10},
		Log:     LogConfig{Level: "info", Format: "json"},
		Cabinet: CabinetConfig{IdleTimeout: 30 * time.Minute},
	}
	c.Payments.Payme.CheckoutURL = "https://checkout.paycom.uz/"
	c.Payments.Click.PayURL = "https://my.click.uz/services/pay"
	return c
}

// fillDerived decides the values that depend on others: each public
// listener's base URL when it is not set.
func (c *Config) fillDerived() {
	for _, l := range []struct {
		cfg *ListenerConfig
		def string
	}{{&c.Embedded, DefaultEmbeddedBaseURL}, {&c.Key, DefaultKeyBaseURL}} {
		l.cfg.BaseURL = tlscert.DefaultBaseURL(l.cfg.BaseURL, l.cfg.Listen, l.cfg.TLS.ACME.Domains)
		if l.cfg.BaseURL == "" {
			l.cfg.BaseURL = l.def
		}
	}
}

// Files of the data directory.
const (
	DBFile         = "contracts.db"
	AdminTokenFile = "admin.token"
	MasterKeyFile  = "master.key"
	ACMEDir        = "acme" // the ACME account key and certificates
)

// DataPath is a file (or directory) of the data directory.
func (c *Config) DataPath(name string) string { return filepath.Join(c.Data.Dir, name) }

// DBPath is the database file inside the data directory.
func (c *Config) DBPath() string { return c.DataPath(DBFile) }

// ACMEOn reports whether a listener gets its certificates from ACME.
func (c *Config) ACMEOn() bool {
	return len(c.Embedded.TLS.ACME.Domains) > 0 || len(c.Key.TLS.ACME.Domains) > 0
}

// TLSListeners are the three listeners' TLS settings as package tlscert
// takes them, named by their config prefix.
func (c *Config) TLSListeners() []tlscert.Listener {
	return []tlscert.Listener{
		{Name: "embedded", Domains: c.Embedded.TLS.ACME.Domains, CertFile: c.Embedded.TLS.CertFile, KeyFile: c.Embedded.TLS.KeyFile, BaseURL: c.Embedded.BaseURL},
		{Name: "key", Domains: c.Key.TLS.ACME.Domains, CertFile: c.Key.TLS.CertFile, KeyFile: c.Key.TLS.KeyFile, BaseURL: c.Key.BaseURL},
		{Name: "admin", CertFile: c.Admin.TLS.CertFile, KeyFile: c.Admin.TLS.KeyFile},
	}
}
