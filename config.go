package main

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"reflect"
	"sort"
	"strings"
	"time"

	"contracts/server"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/env"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"
	"github.com/spf13/pflag"
)

// Config is the whole configuration, loaded once at start.
type Config struct {
	Service   ServiceConfig   `koanf:"service"`
	Data      DataConfig      `koanf:"data"`
	Embedded  ListenerConfig  `koanf:"embedded"`
	Key       ListenerConfig  `koanf:"key"`
	Admin     AdminConfig     `koanf:"admin"`
	HTTP      HTTPConfig      `koanf:"http"`
	Signing   SigningConfig   `koanf:"signing"`
	SMS       SMSConfig       `koanf:"sms"`
	Identity  IdentityConfig  `koanf:"identity"`
	EIMZO     EIMZOConfig     `koanf:"eimzo"`
	Webhooks  WebhooksConfig  `koanf:"webhooks"`
	RateLimit RateLimitConfig `koanf:"ratelimit"`
	Secrets   SecretsConfig   `koanf:"secrets"`
	Cabinet   CabinetConfig   `koanf:"cabinet"`
	Log       LogConfig       `koanf:"log"`
}

// ServiceConfig names the service in webhook headers and iframe messages.
type ServiceConfig struct {
	Name string `koanf:"name"`
}

// DataConfig says where the database lives.
type DataConfig struct {
	Dir        string        `koanf:"dir"`
	BatchDelay time.Duration `koanf:"batchDelay"`
}

// TLSConfig turns on TLS for a listener when both files are set.
type TLSConfig struct {
	CertFile string `koanf:"certFile"`
	KeyFile  string `koanf:"keyFile"`
}

// ListenerConfig is a public listener: its address and its outside URL.
type ListenerConfig struct {
	Listen  string    `koanf:"listen"`
	BaseURL string    `koanf:"baseURL"`
	TLS     TLSConfig `koanf:"tls"`
}

// AdminConfig is the local admin listener and its bearer token.
type AdminConfig struct {
	Listen string    `koanf:"listen"`
	Token  string    `koanf:"token"`
	TLS    TLSConfig `koanf:"tls"`
	// AllowedHosts are names (or addresses) the listener answers to besides
	// loopback and its own address, e.g. a LAN name of the console.
	AllowedHosts []string `koanf:"allowedHosts"`
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
}

// SMSConfig picks the SMS provider.
type SMSConfig struct {
	Provider string        `koanf:"provider"`
	HTTP     SMSHTTPConfig `koanf:"http"`
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

// IDPConfig is one OAuth2 identity provider; off while AuthURL is empty.
type IDPConfig struct {
	AuthURL      string        `koanf:"authURL"`
	TokenURL     string        `koanf:"tokenURL"`
	UserinfoURL  string        `koanf:"userinfoURL"`
	ClientID     string        `koanf:"clientId"`
	ClientSecret string        `koanf:"clientSecret"`
	Scope        string        `koanf:"scope"`
	InClaim      string        `koanf:"inClaim"`
	Timeout      time.Duration `koanf:"timeout"`
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
}

// RateLimitConfig holds request limits; 0 means no limit.
type RateLimitConfig struct {
	TokenPerMinute          int `koanf:"tokenPerMinute"`
	OTPPerMinute            int `koanf:"otpPerMinute"`
	KeyPerSecond            int `koanf:"keyPerSecond"`
	AppPerSecond            int `koanf:"appPerSecond"`
	SessionsPerPartyPerHour int `koanf:"sessionsPerPartyPerHour"`
}

// CabinetConfig tunes the parties' own web page on the key listener.
type CabinetConfig struct {
	IdleTimeout time.Duration `koanf:"idleTimeout"`
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

// DefaultConfig is the built-in configuration.
func DefaultConfig() Config {
	return Config{
		Service:  ServiceConfig{Name: "Contracts"},
		Data:     DataConfig{Dir: "./data", BatchDelay: 2 * time.Millisecond},
		Embedded: ListenerConfig{Listen: ":8080", BaseURL: "http://localhost:8080"},
		Key:      ListenerConfig{Listen: ":8081", BaseURL: "http://localhost:8081"},
		Admin:    AdminConfig{Listen: "127.0.0.1:8082", AllowedHosts: []string{}},
		HTTP: HTTPConfig{ReadHeaderTimeout: 5 * time.Second, ReadTimeout: 15 * time.Second, WriteTimeout: 30 * time.Second,
			IdleTimeout: 60 * time.Second, ShutdownTimeout: 15 * time.Second, TrustedProxies: []string{}},
		Signing:   SigningConfig{SessionTTL: 30 * time.Minute, OTPTTL: 5 * time.Minute},
		SMS:       SMSConfig{Provider: "console", HTTP: SMSHTTPConfig{Headers: map[string]string{}, Timeout: 10 * time.Second}},
		Identity:  IdentityConfig{MyID: IDPConfig{InClaim: "pinfl", Timeout: 10 * time.Second}, AbleID: IDPConfig{InClaim: "pinfl", Timeout: 10 * time.Second}},
		EIMZO:     EIMZOConfig{Timeout: 10 * time.Second},
		Webhooks:  WebhooksConfig{Workers: 32, Timeout: 10 * time.Second},
		RateLimit: RateLimitConfig{TokenPerMinute: 60, OTPPerMinute: 30, KeyPerSecond: 100, AppPerSecond: 100, SessionsPerPartyPerHour: 10},
		Log:       LogConfig{Level: "info", Format: "json"},
		Cabinet:   CabinetConfig{IdleTimeout: 30 * time.Minute},
	}
}

// flagKeys maps command-line flags to config keys.
var flagKeys = map[string]string{
	"data-dir": "data.dir", "embedded-listen": "embedded.listen", "key-listen": "key.listen",
	"admin-listen": "admin.listen", "log-level": "log.level", "log-format": "log.format",
}

// AddConfigFlags declares the flags that override configuration keys.
func AddConfigFlags(fs *pflag.FlagSet) {
	fs.String("config", "", "YAML configuration file")
	for name, key := range flagKeys {
		fs.String(name, "", "overrides "+key)
	}
}

// LoadConfig merges defaults < YAML file < CONTRACTS_ environment < flags,
// and validates the result. Errors name the offending key.
func LoadConfig(fs *pflag.FlagSet) (*Config, error) {
	k := koanf.New(".")
	if err := k.Load(structs.Provider(DefaultConfig(), "koanf"), nil); err != nil {
		return nil, err
	}
	known, lists := map[string]string{}, map[string]bool{}
	for _, key := range k.Keys() {
		known[strings.ToLower(key)] = key
		lists[key] = reflect.ValueOf(k.Get(key)).Kind() == reflect.Slice
	}
	if path, _ := fs.GetString("config"); path != "" {
		if err := k.Load(file.Provider(path), oneDocumentYAML{yaml.Parser()}); err != nil {
			return nil, fmt.Errorf("config file %s: %w", path, err)
		}
	}
	// Unknown CONTRACTS_ variables are ignored: tools share the prefix. A
	// list is written comma- or space-separated.
	err := k.Load(env.ProviderWithValue("CONTRACTS_", ".", func(name, value string) (string, any) {
		key := strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(name, "CONTRACTS_")), "__", ".")
		if canon, ok := known[key]; ok && lists[canon] {
			return canon, strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' })
		} else if ok {
			return canon, value
		}
		if strings.HasPrefix(key, "sms.http.headers.") {
			return "sms.http.headers." + name[len("CONTRACTS_SMS__HTTP__HEADERS__"):], value
		}
		return "", nil
	}), nil)
	if err != nil {
		return nil, err
	}
	for name, key := range flagKeys {
		if f := fs.Lookup(name); f != nil && f.Changed {
			if err := k.Set(key, f.Value.String()); err != nil {
				return nil, err
			}
		}
	}
	if err := checkKnownKeys(k, known); err != nil {
		return nil, err
	}
	var cfg Config
	if err := k.UnmarshalWithConf("", &cfg, koanf.UnmarshalConf{Tag: "koanf"}); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return &cfg, cfg.Validate()
}

func checkKnownKeys(k *koanf.Koanf, known map[string]string) error {
	var unknown []string
	for _, key := range k.Keys() {
		if _, ok := known[strings.ToLower(key)]; !ok && !strings.HasPrefix(key, "sms.http.headers.") {
			unknown = append(unknown, key)
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		return fmt.Errorf("config: unknown key %q", unknown[0])
	}
	return nil
}

// Validate checks every value and names the first bad key.
func (c *Config) Validate() error {
	for key, addr := range map[string]string{"embedded.listen": c.Embedded.Listen, "key.listen": c.Key.Listen, "admin.listen": c.Admin.Listen} {
		if _, _, err := net.SplitHostPort(addr); err != nil {
			return fmt.Errorf("config: %s: %q is not a host:port address", key, addr)
		}
	}
	for key, u := range map[string]string{"embedded.baseURL": c.Embedded.BaseURL, "key.baseURL": c.Key.BaseURL} {
		if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return fmt.Errorf("config: %s: %q is not an http(s) URL", key, u)
		}
	}
	for key, t := range map[string]TLSConfig{"embedded.tls": c.Embedded.TLS, "key.tls": c.Key.TLS, "admin.tls": c.Admin.TLS} {
		if (t.CertFile == "") != (t.KeyFile == "") {
			return fmt.Errorf("config: %s: certFile and keyFile go together", key)
		}
	}
	positive := map[string]time.Duration{"signing.sessionTTL": c.Signing.SessionTTL, "signing.otpTTL": c.Signing.OTPTTL,
		"http.readHeaderTimeout": c.HTTP.ReadHeaderTimeout, "http.readTimeout": c.HTTP.ReadTimeout,
		"http.writeTimeout": c.HTTP.WriteTimeout, "http.idleTimeout": c.HTTP.IdleTimeout,
		"http.shutdownTimeout": c.HTTP.ShutdownTimeout, "webhooks.timeout": c.Webhooks.Timeout, "sms.http.timeout": c.SMS.HTTP.Timeout,
		"identity.myid.timeout": c.Identity.MyID.Timeout, "identity.ableid.timeout": c.Identity.AbleID.Timeout, "eimzo.timeout": c.EIMZO.Timeout,
		"cabinet.idleTimeout": c.Cabinet.IdleTimeout}
	for key, d := range positive {
		// A bare YAML number is read as nanoseconds: nothing here is that short.
		if d < time.Millisecond {
			return fmt.Errorf("config: %s: must be a duration of at least 1ms, with a unit (e.g. 30s, 5m)", key)
		}
	}
	if c.Signing.SessionTTL < time.Minute {
		return fmt.Errorf("config: signing.sessionTTL: at least 1m")
	}
	if c.Signing.OTPTTL < 30*time.Second {
		return fmt.Errorf("config: signing.otpTTL: at least 30s")
	}
	if c.Data.Dir == "" {
		return fmt.Errorf("config: data.dir: required")
	}
	if c.Data.BatchDelay < 0 || c.Data.BatchDelay > time.Second {
		return fmt.Errorf("config: data.batchDelay: must be between 0 and 1s")
	}
	if c.Service.Name == "" || strings.ContainsAny(c.Service.Name, " \t\r\n:") {
		return fmt.Errorf("config: service.name: required, one word usable in a header name")
	}
	switch c.SMS.Provider {
	case "console":
	case "http":
		if p, err := url.Parse(c.SMS.HTTP.URL); err != nil || p.Host == "" {
			return fmt.Errorf("config: sms.http.url: required and an absolute URL when sms.provider is http")
		}
	default:
		return fmt.Errorf("config: sms.provider: %q is not console or http", c.SMS.Provider)
	}
	if c.Webhooks.Workers < 1 || c.Webhooks.Workers > 256 {
		return fmt.Errorf("config: webhooks.workers: must be 1 to 256")
	}
	for key, n := range map[string]int{"ratelimit.tokenPerMinute": c.RateLimit.TokenPerMinute, "ratelimit.otpPerMinute": c.RateLimit.OTPPerMinute,
		"ratelimit.keyPerSecond": c.RateLimit.KeyPerSecond, "ratelimit.appPerSecond": c.RateLimit.AppPerSecond,
		"ratelimit.sessionsPerPartyPerHour": c.RateLimit.SessionsPerPartyPerHour} {
		if n < 0 {
			return fmt.Errorf("config: %s: must be 0 (no limit) or more", key)
		}
	}
	if _, err := server.ParseTrustedProxies(c.HTTP.TrustedProxies); err != nil {
		return fmt.Errorf("config: http.trustedProxies: %w", err)
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("config: log.level: %q is not debug, info, warn or error", c.Log.Level)
	}
	if c.Log.Format != "json" && c.Log.Format != "console" {
		return fmt.Errorf("config: log.format: %q is not json or console", c.Log.Format)
	}
	for key, p := range map[string]IDPConfig{"identity.myid": c.Identity.MyID, "identity.ableid": c.Identity.AbleID} {
		if p.AuthURL != "" && (p.TokenURL == "" || p.UserinfoURL == "" || p.ClientID == "" || p.InClaim == "") {
			return fmt.Errorf("config: %s: authURL needs tokenURL, userinfoURL, clientId and inClaim", key)
		}
	}
	if c.EIMZO.VerifyURL != "" {
		if p, err := url.Parse(c.EIMZO.VerifyURL); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return fmt.Errorf("config: eimzo.verifyURL: %q is not an absolute http(s) URL", c.EIMZO.VerifyURL)
		}
	}
	if c.Secrets.MasterKey != "" && len(c.Secrets.MasterKey) < 32 {
		return fmt.Errorf("config: secrets.masterKey: at least 32 characters")
	}
	return c.Admin.validate()
}

// DBPath is the database file inside the data directory.
func (c *Config) DBPath() string { return c.Data.Dir + string(os.PathSeparator) + "contracts.db" }
