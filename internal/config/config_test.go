package config

import (
	"bufio"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"contracts/internal/testtools"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"
	"github.com/spf13/pflag"
)

// loadConfigWith loads the configuration from a YAML text (none when
// empty), environment variables and command-line arguments. The process's
// own environment plays no part: the variables given are all there is.
func loadConfigWith(t *testing.T, yamlText string, env map[string]string, args ...string) (*Config, error) {
	t.Helper()
	environ := []string{"PATH=/usr/bin", "HOME=" + t.TempDir()}
	for k, v := range env {
		environ = append(environ, k+"="+v)
	}
	if yamlText != "" {
		path := filepath.Join(t.TempDir(), "contracts.yaml")
		if err := os.WriteFile(path, []byte(yamlText), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append([]string{"--config", path}, args...)
	}
	fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
	AddFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("flags %v: %v", args, err)
	}
	return Load(fs, environ)
}

// exampleFile is config.example.yaml at the top of the repository.
func exampleFile(t *testing.T) string { return testtools.RepoPath(t, "config.example.yaml") }

// loadedDefault is Default as loading leaves it: with the values decided
// after loading filled in.
func loadedDefault() Config {
	c := Default()
	c.fillDerived()
	return c
}

func TestConfigBuiltInDefaults(t *testing.T) {
	cfg, err := loadConfigWith(t, "", nil)
	if err != nil {
		t.Fatalf("defaults do not load: %v", err)
	}
	if want := loadedDefault(); !reflect.DeepEqual(*cfg, want) {
		t.Fatalf("loaded defaults differ from Default:\n got %+v\nwant %+v", *cfg, want)
	}
	// The documented defaults (README, Listeners).
	if cfg.Embedded.Listen != ":8080" || cfg.Key.Listen != ":8081" || cfg.Admin.Listen != "127.0.0.1:8082" ||
		cfg.Embedded.BaseURL != "http://localhost:8080" || cfg.Key.BaseURL != "http://localhost:8081" ||
		cfg.ACME.DirectoryURL != "https://acme-v02.api.letsencrypt.org/directory" || cfg.ACME.HTTPListen != ":80" ||
		cfg.Data.Dir != "./data" || cfg.Signing.SessionTTL != 30*time.Minute || cfg.Signing.OTPTTL != 5*time.Minute ||
		cfg.Signing.Reminders != 2 || cfg.Signing.RemindEvery != 24*time.Hour ||
		cfg.SMS.Provider != "console" || cfg.Service.Name != "Contracts" {
		t.Fatalf("defaults are not the documented ones: %+v", cfg)
	}
	if got := cfg.DBPath(); got != filepath.Join("./data", "contracts.db") && got != "./data/contracts.db" {
		t.Fatalf("DBPath = %q", got)
	}
}

// TestConfigPrecedence sets the same key at every layer and checks that
// the higher layer wins: defaults < YAML < environment < flags.
func TestConfigPrecedence(t *testing.T) {
	const yamlText = `
embedded:
  listen: 127.0.0.1:9001
signing:
  sessionTTL: 45m
  otpTTL: 2m
log:
  level: debug
`
	env := map[string]string{
		"CONTRACTS_EMBEDDED__LISTEN":    "127.0.0.1:9002",
		"CONTRACTS_SIGNING__SESSIONTTL": "50m", // upper case maps onto sessionTTL
	}
	steps := []struct {
		name   string
		yaml   string
		env    map[string]string
		args   []string
		listen string
		ttl    time.Duration
	}{
		{"defaults", "", nil, nil, ":8080", 30 * time.Minute},
		{"yaml over defaults", yamlText, nil, nil, "127.0.0.1:9001", 45 * time.Minute},
		{"env over yaml", yamlText, env, nil, "127.0.0.1:9002", 50 * time.Minute},
		{"flag over env", yamlText, env, []string{"--embedded-listen", "127.0.0.1:9003"}, "127.0.0.1:9003", 50 * time.Minute},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			cfg, err := loadConfigWith(t, s.yaml, s.env, s.args...)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.Embedded.Listen != s.listen {
				t.Errorf("embedded.listen = %q, want %q", cfg.Embedded.Listen, s.listen)
			}
			if cfg.Signing.SessionTTL != s.ttl {
				t.Errorf("signing.sessionTTL = %v, want %v", cfg.Signing.SessionTTL, s.ttl)
			}
			// Keys set by a lower layer only survive the higher layers.
			if s.yaml != "" && (cfg.Signing.OTPTTL != 2*time.Minute || cfg.Log.Level != "debug") {
				t.Errorf("YAML-only keys lost: otpTTL=%v level=%q", cfg.Signing.OTPTTL, cfg.Log.Level)
			}
			if s.yaml == "" && cfg.Log.Level != "info" {
				t.Errorf("log.level = %q without any layer setting it", cfg.Log.Level)
			}
		})
	}
}

func TestConfigSMSGateways(t *testing.T) {
	cfg, err := loadConfigWith(t, "sms:\n  texts:\n    signCode:\n      uz: \"Kod {code}\"\n", map[string]string{
		"CONTRACTS_SMS__PROVIDER":               "eskiz",
		"CONTRACTS_SMS__ESKIZ__EMAIL":           "shop@example.uz",
		"CONTRACTS_SMS__ESKIZ__PASSWORD":        "pw",
		"CONTRACTS_SMS__ESKIZ__CALLBACKURL":     "https://shop.example.uz/sms",
		"CONTRACTS_SMS__TEXTS__SIGNLINK__RU":    "Подпишите: {url}",
		"CONTRACTS_SMS__PLAYMOBILE__ORIGINATOR": "1234",
	})
	if err != nil {
		t.Fatal(err)
	}
	e := cfg.SMS.Eskiz
	if e.BaseURL != "https://notify.eskiz.uz/api" || e.From != "4546" || e.Email != "shop@example.uz" || e.CallbackURL != "https://shop.example.uz/sms" {
		t.Fatalf("sms.eskiz = %+v", e)
	}
	if cfg.SMS.PlayMobile.BaseURL != "https://send.smsxabar.uz/broker-api" || cfg.SMS.PlayMobile.Originator != "1234" {
		t.Fatalf("sms.playmobile = %+v", cfg.SMS.PlayMobile)
	}
	if cfg.SMS.Texts["signCode"]["uz"] != "Kod {code}" || cfg.SMS.Texts["signLink"]["ru"] != "Подпишите: {url}" {
		t.Fatalf("sms.texts = %v", cfg.SMS.Texts)
	}
}

func TestConfigEnvironmentMapping(t *testing.T) {
	cfg, err := loadConfigWith(t, "", map[string]string{
		"CONTRACTS_RATELIMIT__KEYPERSECOND":     "7",
		"CONTRACTS_Key__BaseUrl":                "https://keys.example",
		"CONTRACTS_DATA__DIR":                   "/srv/contracts",
		"CONTRACTS_IDENTITY__MYID__INCLAIM":     "pin",
		"CONTRACTS_SMS__PROVIDER":               "http",
		"CONTRACTS_SMS__HTTP__URL":              "http://sms.example/send",
		"CONTRACTS_SMS__HTTP__HEADERS__X-Token": "t0ken",
		"CONTRACTS_NOT_A_KEY":                   "ignored",
		"CONTRACTS_REQUIRE_TOOLS":               "1",
	})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.RateLimit.KeyPerSecond != 7 || cfg.Key.BaseURL != "https://keys.example" || cfg.Data.Dir != "/srv/contracts" ||
		cfg.Identity.MyID.InClaim != "pin" || cfg.SMS.Provider != "http" || cfg.SMS.HTTP.URL != "http://sms.example/send" {
		t.Fatalf("environment not applied: %+v", cfg)
	}
	if cfg.SMS.HTTP.Headers["X-Token"] != "t0ken" {
		t.Fatalf("sms.http.headers = %v, want X-Token: t0ken", cfg.SMS.HTTP.Headers)
	}
	if cfg.DBPath() != "/srv/contracts/contracts.db" {
		t.Fatalf("DBPath = %q", cfg.DBPath())
	}
}

// TestConfigAdminHosts: admin.allowedHosts from YAML or from the
// environment (comma- or space-separated), and a token of 32 characters.
func TestConfigAdminHosts(t *testing.T) {
	token := strings.Repeat("t", 32)
	cfg, err := loadConfigWith(t, "admin:\n  token: "+token+"\n  allowedHosts: [console.lan, \"10.0.0.5\", \"[fe80::1]\"]\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Admin.Token != token || !reflect.DeepEqual(cfg.Admin.AllowedHosts, []string{"console.lan", "10.0.0.5", "[fe80::1]"}) {
		t.Fatalf("admin from YAML: %+v", cfg.Admin)
	}
	cfg, err = loadConfigWith(t, "", map[string]string{"CONTRACTS_ADMIN__ALLOWEDHOSTS": "console.lan, office-pc.local  my_host"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg.Admin.AllowedHosts, []string{"console.lan", "office-pc.local", "my_host"}) {
		t.Fatalf("admin.allowedHosts from the environment: %q", cfg.Admin.AllowedHosts)
	}
}

func TestConfigFlags(t *testing.T) {
	dir := t.TempDir()
	cfg, err := loadConfigWith(t, "", nil, "--data-dir", dir, "--key-listen", "127.0.0.1:0",
		"--admin-listen", "[::1]:9082", "--log-level", "warn", "--log-format", "console")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Data.Dir != dir || cfg.Key.Listen != "127.0.0.1:0" || cfg.Admin.Listen != "[::1]:9082" ||
		cfg.Log.Level != "warn" || cfg.Log.Format != "console" {
		t.Fatalf("flags not applied: %+v", cfg)
	}
}

// TestConfigErrorsNameTheKey feeds one bad value per case, through each
// layer, and checks that the error names the key.
func TestConfigErrorsNameTheKey(t *testing.T) {
	cases := []struct {
		name string
		yaml string
		env  map[string]string
		args []string
		want string
	}{
		{name: "bad duration in env", env: map[string]string{"CONTRACTS_SIGNING__OTPTTL": "soon"},
			want: `config: signing.otpTTL: "soon" is not a duration with a unit (e.g. 30s, 5m) (from CONTRACTS_SIGNING__OTPTTL)`},
		{name: "misspelt key in env", env: map[string]string{"CONTRACTS_EMBEDED__LISTEN": ":9000"},
			want: "config: CONTRACTS_EMBEDED__LISTEN: the environment variable names no configuration key"},
		{name: "flag of a bool in env", env: map[string]string{"CONTRACTS_EIMZO__SKIPTIMESTAMP": "maybe"},
			want: `config: eimzo.skipTimestamp: "maybe" is not true or false (from CONTRACTS_EIMZO__SKIPTIMESTAMP)`},
		{name: "bad duration in yaml", yaml: "http:\n  readTimeout: forever\n", want: `config: http.readTimeout: "forever" is not a duration`},
		{name: "zero duration", yaml: "signing:\n  sessionTTL: 0s\n", want: "signing.sessionTTL"},
		{name: "bare number is nanoseconds", yaml: "signing:\n  sessionTTL: 45\n", want: "signing.sessionTTL"},
		{name: "session too short", yaml: "signing:\n  sessionTTL: 10s\n", want: "signing.sessionTTL: at least 1m"},
		{name: "code too short", yaml: "signing:\n  otpTTL: 5s\n", want: "signing.otpTTL: at least 30s"},
		{name: "too many reminders", yaml: "signing:\n  reminders: 11\n", want: "signing.reminders"},
		{name: "reminders too often", env: map[string]string{"CONTRACTS_SIGNING__REMINDEVERY": "30m"}, want: "signing.remindEvery"},
		{name: "payment reminder too close", env: map[string]string{"CONTRACTS_PAYMENTS__REMINDBEFORE": "30m"}, want: "payments.remindBefore"},
		{name: "payment reminder too early", env: map[string]string{"CONTRACTS_PAYMENTS__REMINDBEFORE": "2161h"}, want: "payments.remindBefore"},
		{name: "negative duration", env: map[string]string{"CONTRACTS_WEBHOOKS__TIMEOUT": "-1s"}, want: "webhooks.timeout"},
		{name: "listen without port (flag)", args: []string{"--admin-listen", "localhost"}, want: "admin.listen"},
		{name: "listen without host:port (env)", env: map[string]string{"CONTRACTS_KEY__LISTEN": "8081"}, want: "key.listen"},
		{name: "embedded listen in yaml", yaml: "embedded:\n  listen: \"nowhere\"\n", want: "embedded.listen"},
		{name: "base URL without scheme", yaml: "embedded:\n  baseURL: localhost:8080\n", want: "embedded.baseURL"},
		{name: "base URL of another scheme", env: map[string]string{"CONTRACTS_KEY__BASEURL": "ftp://files.example"}, want: "key.baseURL"},
		{name: "unknown sms provider", yaml: "sms:\n  provider: pigeon\n", want: "sms.provider"},
		{name: "http sms without url", env: map[string]string{"CONTRACTS_SMS__PROVIDER": "http"}, want: "sms.http.url"},
		{name: "unknown key in yaml", yaml: "embedded:\n  listne: \":9000\"\n", want: "config: embedded.listne: unknown key"},
		{name: "unknown section in yaml", yaml: "database:\n  path: x.db\n", want: "config: database.path: unknown key"},
		{name: "eskiz without password", env: map[string]string{"CONTRACTS_SMS__PROVIDER": "eskiz", "CONTRACTS_SMS__ESKIZ__EMAIL": "a@b.uz"}, want: "sms.eskiz.password: required"},
		{name: "playmobile without login", yaml: "sms:\n  provider: playmobile\n  playmobile:\n    password: p\n", want: "sms.playmobile.login: required"},
		{name: "sms text without its code", yaml: "sms:\n  texts:\n    signCode:\n      ru: \"Договор {number}\"\n", want: "sms.texts.signCode.ru: the text must contain {code}"},
		{name: "sms text without its code (env)", env: map[string]string{"CONTRACTS_SMS__TEXTS__CABINETCODE__EN": "Log in"}, want: "sms.texts.cabinetCode.en: the text must contain {code}"},
		{name: "sms text of no kind", yaml: "sms:\n  texts:\n    welcome:\n      uz: \"Salom\"\n", want: "sms.texts.welcome"},
		{name: "sms text of no language", yaml: "sms:\n  texts:\n    signLink:\n      fr: \"{url}\"\n", want: "sms.texts.signLink.fr"},
		{name: "myid flow of no kind", yaml: "identity:\n  myid:\n    flow: popup\n", want: "identity.myid.flow"},
		{name: "myid web without secret", env: map[string]string{"CONTRACTS_IDENTITY__MYID__FLOW": "web", "CONTRACTS_IDENTITY__MYID__CLIENTID": "shop"}, want: "identity.myid.clientSecret"},
		{name: "ableid web", yaml: "identity:\n  ableid:\n    flow: web\n", want: "identity.ableid.flow"},
		{name: "negative rate limit", env: map[string]string{"CONTRACTS_RATELIMIT__OTPPERMINUTE": "-1"}, want: "ratelimit.otpPerMinute"},
		{name: "rate limit not a number", env: map[string]string{"CONTRACTS_RATELIMIT__KEYPERSECOND": "many"},
			want: `config: ratelimit.keyPerSecond: "many" is not a whole number (from CONTRACTS_RATELIMIT__KEYPERSECOND)`},
		{name: "half a TLS pair", yaml: "key:\n  tls:\n    certFile: /etc/ssl/cert.pem\n", want: "key.tls: certFile and keyFile go together"},
		{name: "other half of a TLS pair", env: map[string]string{"CONTRACTS_ADMIN__TLS__KEYFILE": "/k.pem"}, want: "admin.tls"},
		{name: "ACME and certificate files on one listener", yaml: "embedded:\n  tls: {certFile: /c.pem, keyFile: /k.pem, acme: {domains: [sign.example.com]}}\n",
			want: "embedded.tls: acme.domains and certFile/keyFile cannot both be set"},
		{name: "ACME domain without a dot", env: map[string]string{"CONTRACTS_KEY__TLS__ACME__DOMAINS": "localhost"}, want: "key.tls.acme.domains: \"localhost\" has no dot"},
		{name: "ACME domain that is an address", yaml: "embedded:\n  tls: {acme: {domains: [\"10.0.0.5\"]}}\n", want: "embedded.tls.acme.domains"},
		{name: "ACME domain on two listeners", env: map[string]string{"CONTRACTS_EMBEDDED__TLS__ACME__DOMAINS": "sign.example.com",
			"CONTRACTS_KEY__TLS__ACME__DOMAINS": "api.example.com,SIGN.example.com"}, want: "key.tls.acme.domains"},
		{name: "http base URL with ACME", yaml: "embedded:\n  baseURL: http://sign.example.com\n  tls: {acme: {domains: [sign.example.com]}}\n", want: "embedded.baseURL"},
		{name: "unreadable ACME CA file", env: map[string]string{"CONTRACTS_EMBEDDED__TLS__ACME__DOMAINS": "sign.example.com",
			"CONTRACTS_ACME__CAFILE": "/nonexistent/ca.pem"}, want: "acme.caFile: open /nonexistent/ca.pem"},
		{name: "ACME directory over http", yaml: "embedded: {tls: {acme: {domains: [sign.example.com]}}}\nacme: {directoryURL: \"http://ca.internal/dir\"}\n", want: "acme.directoryURL"},
		{name: "ACME email that is not one", yaml: "embedded: {tls: {acme: {domains: [sign.example.com]}}}\nacme: {email: ops}\n", want: "acme.email"},
		{name: "ACME HTTP listen without a port", env: map[string]string{"CONTRACTS_EMBEDDED__TLS__ACME__DOMAINS": "sign.example.com",
			"CONTRACTS_ACME__HTTPLISTEN": "80"}, want: "acme.httpListen"},
		{name: "ACME on the admin listener", yaml: "admin:\n  tls: {acme: {domains: [admin.example.com]}}\n", want: "config: admin.tls.acme.domains: unknown key"},
		{name: "bad log level", args: []string{"--log-level", "loud"}, want: "log.level"},
		{name: "bad log format", yaml: "log:\n  format: xml\n", want: "log.format"},
		{name: "service name with a space", yaml: "service:\n  name: My Service\n", want: "service.name"},
		{name: "no webhook workers", env: map[string]string{"CONTRACTS_WEBHOOKS__WORKERS": "0"}, want: "webhooks.workers"},
		{name: "identity provider half configured", yaml: "identity:\n  myid:\n    authURL: https://id.example/auth\n", want: "identity.myid"},
		{name: "short master key", env: map[string]string{"CONTRACTS_SECRETS__MASTERKEY": "short"}, want: "secrets.masterKey"},
		{name: "batch delay too long", yaml: "data:\n  batchDelay: 5s\n", want: "data.batchDelay"},
		{name: "empty data dir", args: []string{"--data-dir", ""}, want: "data.dir"},
		{name: "unknown driver", yaml: "data:\n  driver: sqlite\n", want: "data.driver"},
		{name: "postgres without url", env: map[string]string{"CONTRACTS_DATA__DRIVER": "postgres"}, want: "data.postgres.url"},
		{name: "postgres url that is not one", yaml: "data: {driver: postgres, postgres: {url: \"postgres://a:b@[bad\"}}\n", want: "data.postgres.url"},
		{name: "postgres without admin token", env: pgEnv("CONTRACTS_ADMIN__TOKEN"), want: "admin.token: required with data.driver postgres"},
		{name: "postgres without master key", env: pgEnv("CONTRACTS_SECRETS__MASTERKEY"), want: "secrets.masterKey: required with data.driver postgres"},
		{name: "postgres with too few connections", env: with(pgEnv(), "CONTRACTS_DATA__POSTGRES__MAXCONNS", "2"), want: "data.postgres.maxConns"},
		{name: "postgres timeout too short", env: with(pgEnv(), "CONTRACTS_DATA__POSTGRES__TIMEOUT", "10ms"), want: "data.postgres.timeout"},
		{name: "webhook lease shorter than two attempts", yaml: "webhooks:\n  lease: 15s\n", want: "webhooks.lease"},
		{name: "malformed yaml", yaml: "embedded: [unclosed\n", want: "contracts.yaml: line 1: did not find expected"},
		{name: "short admin token in env", env: map[string]string{"CONTRACTS_ADMIN__TOKEN": "admin"}, want: "admin.token: at least 32 characters"},
		{name: "admin token of 31 characters", yaml: "admin:\n  token: " + strings.Repeat("t", 31) + "\n", want: "admin.token"},
		{name: "allowed host with a scheme", yaml: "admin:\n  allowedHosts: [\"http://console.lan\"]\n", want: "admin.allowedHosts"},
		{name: "allowed host with a port", env: map[string]string{"CONTRACTS_ADMIN__ALLOWEDHOSTS": "ok.lan,console.lan:8082"}, want: `admin.allowedHosts: "console.lan:8082"`},
		{name: "yaml with trailing garbage", yaml: "{log: {level: debug}}\n{{{\n", want: "contracts.yaml: text after the first YAML document"},
		{name: "second yaml document", yaml: "log:\n  level: debug\n---\nlog:\n  level: error\n", want: "contracts.yaml: a second YAML document"},
		{name: "empty second yaml document", yaml: "log:\n  level: debug\n---\n", want: "contracts.yaml: a second YAML document"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := loadConfigWith(t, c.yaml, c.env, c.args...)
			if err == nil {
				t.Fatalf("loaded without error; want one naming %q", c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not name %q", err, c.want)
			}
		})
	}
	t.Run("missing config file", func(t *testing.T) {
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		AddFlags(fs)
		missing := filepath.Join(t.TempDir(), "absent.yaml")
		if err := fs.Parse([]string{"--config", missing}); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(fs, nil); err == nil || !strings.Contains(err.Error(), missing) {
			t.Fatalf("error %v does not name the missing file", err)
		}
	})
}

// TestConfigExampleEqualsDefaults loads config.example.yaml: it must change
// nothing, so that it documents the defaults truthfully.
func TestConfigExampleEqualsDefaults(t *testing.T) {
	cfg, err := loadConfigWith(t, "", nil, "--config", exampleFile(t))
	if err != nil {
		t.Fatalf("config.example.yaml does not load: %v", err)
	}
	if want := loadedDefault(); !reflect.DeepEqual(*cfg, want) {
		t.Fatalf("config.example.yaml differs from the defaults:\n got %+v\nwant %+v", *cfg, want)
	}
}

// TestConfigExampleDocumentsEveryKey fails when a key of Default is
// missing from config.example.yaml (or the example has a key that is not
// one), and when a key in it has no comment.
func TestConfigExampleDocumentsEveryKey(t *testing.T) {
	def := koanf.New(".")
	if err := def.Load(structs.Provider(Default(), "koanf"), nil); err != nil {
		t.Fatal(err)
	}
	ex := koanf.New(".")
	if err := ex.Load(file.Provider(exampleFile(t)), yaml.Parser()); err != nil {
		t.Fatal(err)
	}
	missing, extra := keyDiff(def.Keys(), ex.Keys())
	if len(missing) > 0 {
		t.Errorf("config.example.yaml lacks keys of Default: %v", missing)
	}
	if len(extra) > 0 {
		t.Errorf("config.example.yaml has keys Default does not: %v", extra)
	}

	f, err := os.Open(exampleFile(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keyLine := regexp.MustCompile(`^\s*[A-Za-z][A-Za-z0-9]*:\s*(\S.*)?$`)
	prevComment, n := false, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "#"):
			prevComment = true
			continue
		case trimmed == "":
			prevComment = false
			continue
		}
		// A leaf key (one with a value) needs a comment above it or beside it.
		if m := keyLine.FindStringSubmatch(line); m != nil && m[1] != "" && !prevComment && !strings.Contains(line, " # ") {
			t.Errorf("config.example.yaml:%d: key without a comment: %s", n, trimmed)
		}
		prevComment = false
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// keyDiff returns the keys of want absent from got and those of got absent from want.
func keyDiff(want, got []string) (missing, extra []string) {
	in := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, k := range list {
			m[k] = true
		}
		return m
	}
	w, g := in(want), in(got)
	for k := range w {
		if !g[k] {
			missing = append(missing, k)
		}
	}
	for k := range g {
		if !w[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	return missing, extra
}

// http.trustedProxies is a list of CIDR ranges or addresses, from YAML or
// (comma-separated) from the environment; anything else stops the start
// naming the key.
func TestConfigTrustedProxies(t *testing.T) {
	cfg, err := loadConfigWith(t, "http:\n  trustedProxies: [10.0.0.0/8, 192.168.1.5, \"fd00::/8\"]\n", nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range cfg.HTTP.ProxyNets() {
		got = append(got, n.String())
	}
	if want := []string{"10.0.0.0/8", "192.168.1.5/32", "fd00::/8"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("from YAML: %v, want %v", got, want)
	}
	cfg, err = loadConfigWith(t, "", map[string]string{"CONTRACTS_HTTP__TRUSTEDPROXIES": "127.0.0.1, 172.16.0.0/12"})
	if err != nil {
		t.Fatal(err)
	}
	if n := cfg.HTTP.ProxyNets(); len(n) != 2 || n[0].String() != "127.0.0.1/32" || n[1].String() != "172.16.0.0/12" {
		t.Fatalf("from the environment: %v", n)
	}
	if cfg, _ := loadConfigWith(t, "", nil); len(cfg.HTTP.ProxyNets()) != 0 {
		t.Fatalf("default: %v", cfg.HTTP.ProxyNets())
	}
	for _, bad := range []string{"10.0.0.0/33", "proxy.example", "10.0.0.0/8,"} {
		_, err := loadConfigWith(t, "", map[string]string{"CONTRACTS_HTTP__TRUSTEDPROXIES": bad + "x"})
		if err == nil || !strings.Contains(err.Error(), "http.trustedProxies") {
			t.Errorf("%q: %v", bad+"x", err)
		}
	}
}

// ratelimit.appPerSecond and ratelimit.sessionsPerPartyPerHour: on by
// default, 0 turns them off, a negative value names the key.
func TestConfigAppAndSessionLimits(t *testing.T) {
	cfg, err := loadConfigWith(t, "", nil)
	if err != nil || cfg.RateLimit.AppPerSecond != 100 || cfg.RateLimit.SessionsPerPartyPerHour != 10 {
		t.Fatalf("defaults: %+v %v", cfg.RateLimit, err)
	}
	cfg, err = loadConfigWith(t, "ratelimit:\n  appPerSecond: 0\n", map[string]string{"CONTRACTS_RATELIMIT__SESSIONSPERPARTYPERHOUR": "3"})
	if err != nil || cfg.RateLimit.AppPerSecond != 0 || cfg.RateLimit.SessionsPerPartyPerHour != 3 {
		t.Fatalf("set: %+v %v", cfg.RateLimit, err)
	}
	for _, key := range []string{"appPerSecond", "sessionsPerPartyPerHour"} {
		if _, err := loadConfigWith(t, "ratelimit:\n  "+key+": -1\n", nil); err == nil || !strings.Contains(err.Error(), "ratelimit."+key) {
			t.Errorf("%s: -1: %v", key, err)
		}
	}
}

// pgEnv is a valid postgres configuration in the environment, without the
// keys named.
func pgEnv(without ...string) map[string]string {
	env := map[string]string{"CONTRACTS_DATA__DRIVER": "postgres", "CONTRACTS_DATA__POSTGRES__URL": "postgres://contracts@db:5432/contracts",
		"CONTRACTS_ADMIN__TOKEN": strings.Repeat("t", 32), "CONTRACTS_SECRETS__MASTERKEY": strings.Repeat("m", 32)}
	for _, k := range without {
		delete(env, k)
	}
	return env
}

func with(env map[string]string, key, value string) map[string]string {
	env[key] = value
	return env
}

// The postgres driver loads from the environment with its defaults: 20
// connections, 15 s per transaction.
func TestPostgresDriver(t *testing.T) {
	cfg, err := loadConfigWith(t, "", pgEnv())
	if err != nil {
		t.Fatal(err)
	}
	p := cfg.Data.Postgres
	if !cfg.Data.IsPostgres() || p.URL != "postgres://contracts@db:5432/contracts" || p.MaxConns != 20 || p.Timeout != 15*time.Second {
		t.Errorf("data: %+v", cfg.Data)
	}
	if def := Default(); def.Data.IsPostgres() || def.Data.Driver != DriverBbolt {
		t.Errorf("the default driver is %q", def.Data.Driver)
	}
}
