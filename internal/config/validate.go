package config

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"contracts/server"
	"contracts/server/pdf/pades"
	"contracts/server/tlscert"
)

// keyed is a value with its config key; Validate checks lists of them in
// the struct's order, so the first bad key it names is always the same one.
type keyed[T any] struct {
	key string
	v   T
}

// Validate checks every value and names the first bad key.
func (c *Config) Validate() error {
	for _, a := range []keyed[string]{{"embedded.listen", c.Embedded.Listen}, {"key.listen", c.Key.Listen}, {"admin.listen", c.Admin.Listen}} {
		if _, _, err := net.SplitHostPort(a.v); err != nil {
			return fmt.Errorf("config: %s: %q is not a host:port address", a.key, a.v)
		}
	}
	for _, u := range []keyed[string]{{"embedded.baseURL", c.Embedded.BaseURL}, {"key.baseURL", c.Key.BaseURL},
		{"payments.payme.checkoutURL", c.Payments.Payme.CheckoutURL}, {"payments.click.payURL", c.Payments.Click.PayURL}} {
		if p, err := url.Parse(u.v); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return fmt.Errorf("config: %s: %q is not an http(s) URL", u.key, u.v)
		}
	}
	if err := tlscert.Validate(c.ACME.TLSCert(), c.TLSListeners()...); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	positive := []keyed[time.Duration]{
		{"http.readHeaderTimeout", c.HTTP.ReadHeaderTimeout}, {"http.readTimeout", c.HTTP.ReadTimeout},
		{"http.writeTimeout", c.HTTP.WriteTimeout}, {"http.idleTimeout", c.HTTP.IdleTimeout},
		{"http.shutdownTimeout", c.HTTP.ShutdownTimeout}, {"signing.sessionTTL", c.Signing.SessionTTL}, {"signing.otpTTL", c.Signing.OTPTTL},
		{"sms.http.timeout", c.SMS.HTTP.Timeout}, {"identity.myid.timeout", c.Identity.MyID.Timeout},
		{"identity.ableid.timeout", c.Identity.AbleID.Timeout}, {"eimzo.timeout", c.EIMZO.Timeout},
		{"webhooks.timeout", c.Webhooks.Timeout}, {"cabinet.idleTimeout", c.Cabinet.IdleTimeout}}
	for _, d := range positive {
		// A bare YAML number is read as nanoseconds: nothing here is that short.
		if d.v < time.Millisecond {
			return fmt.Errorf("config: %s: must be a duration of at least 1ms, with a unit (e.g. 30s, 5m)", d.key)
		}
	}
	if c.Signing.SessionTTL < time.Minute {
		return fmt.Errorf("config: signing.sessionTTL: at least 1m")
	}
	if c.Signing.OTPTTL < 30*time.Second {
		return fmt.Errorf("config: signing.otpTTL: at least 30s")
	}
	if c.Signing.Reminders < 0 || c.Signing.Reminders > 10 {
		return fmt.Errorf("config: signing.reminders: must be between 0 and 10")
	}
	if c.Signing.RemindEvery != 0 && c.Signing.RemindEvery < time.Hour {
		return fmt.Errorf("config: signing.remindEvery: 0 (no reminders) or at least 1h, with a unit (e.g. 24h)")
	}
	if r := c.Payments.RemindBefore; r != 0 && (r < time.Hour || r > 90*24*time.Hour) {
		return fmt.Errorf("config: payments.remindBefore: 0 (no reminders) or between 1h and 2160h (90 days), with a unit (e.g. 72h)")
	}
	if c.Data.Dir == "" {
		return fmt.Errorf("config: data.dir: required")
	}
	if c.Data.BatchDelay < 0 || c.Data.BatchDelay > time.Second {
		return fmt.Errorf("config: data.batchDelay: must be between 0 and 1s")
	}
	if err := c.validateDriver(); err != nil {
		return err
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
	case "eskiz":
		if err := needAll("sms.eskiz", map[string]string{"email": c.SMS.Eskiz.Email, "password": c.SMS.Eskiz.Password, "from": c.SMS.Eskiz.From}); err != nil {
			return err
		}
		if err := absoluteURL("sms.eskiz.baseURL", c.SMS.Eskiz.BaseURL); err != nil {
			return err
		}
		if c.SMS.Eskiz.CallbackURL != "" {
			if err := absoluteURL("sms.eskiz.callbackURL", c.SMS.Eskiz.CallbackURL); err != nil {
				return err
			}
		}
	case "playmobile":
		if err := needAll("sms.playmobile", map[string]string{"login": c.SMS.PlayMobile.Login, "password": c.SMS.PlayMobile.Password,
			"originator": c.SMS.PlayMobile.Originator}); err != nil {
			return err
		}
		if err := absoluteURL("sms.playmobile.baseURL", c.SMS.PlayMobile.BaseURL); err != nil {
			return err
		}
	default:
		return fmt.Errorf("config: sms.provider: %q is not console, http, eskiz or playmobile", c.SMS.Provider)
	}
	if err := c.SMS.validateTexts(); err != nil {
		return err
	}
	for _, code := range c.SMS.AllowedCountryCodes {
		if code < 1 || code > 999 {
			return fmt.Errorf("config: sms.allowedCountryCodes: %d is not a country calling code (1 to 999)", code)
		}
	}
	if c.Webhooks.Workers < 1 || c.Webhooks.Workers > 256 {
		return fmt.Errorf("config: webhooks.workers: must be 1 to 256")
	}
	if c.Webhooks.PerTargetConcurrency < 1 {
		return fmt.Errorf("config: webhooks.perTargetConcurrency: must be 1 or more (more than webhooks.workers bounds nothing)")
	}
	if c.Webhooks.Lease != 0 && c.Webhooks.Lease < 2*c.Webhooks.Timeout {
		return fmt.Errorf("config: webhooks.lease: 0 (the default) or at least twice webhooks.timeout")
	}
	for _, n := range []keyed[int]{{"ratelimit.tokenPerMinute", c.RateLimit.TokenPerMinute}, {"ratelimit.otpPerMinute", c.RateLimit.OTPPerMinute},
		{"ratelimit.verifyPerMinute", c.RateLimit.VerifyPerMinute}, {"ratelimit.keyPerSecond", c.RateLimit.KeyPerSecond},
		{"ratelimit.appPerSecond", c.RateLimit.AppPerSecond}, {"ratelimit.sessionsPerPartyPerHour", c.RateLimit.SessionsPerPartyPerHour},
		{"ratelimit.codesPerPartyPerDay", c.RateLimit.CodesPerPartyPerDay}, {"ratelimit.wrongCodesPerPartyPerDay", c.RateLimit.WrongCodesPerPartyPerDay},
		{"ratelimit.cabinetCodesPerNumberPerDay", c.RateLimit.CabinetCodesPerNumberPerDay}, {"ratelimit.verifyConcurrent", c.RateLimit.VerifyConcurrent}} {
		if n.v < 0 {
			return fmt.Errorf("config: %s: must be 0 (no limit) or more", n.key)
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
	for _, p := range []keyed[IDPConfig]{{"identity.myid", c.Identity.MyID}, {"identity.ableid", c.Identity.AbleID}} {
		if p.v.AuthURL != "" && p.v.Flow != "web" && (p.v.TokenURL == "" || p.v.UserinfoURL == "" || p.v.ClientID == "" || p.v.InClaim == "") {
			return fmt.Errorf("config: %s: authURL needs tokenURL, userinfoURL, clientId and inClaim", p.key)
		}
	}
	if err := c.Identity.validateFlows(); err != nil {
		return err
	}
	if c.EIMZO.VerifyURL != "" {
		if err := absoluteURL("eimzo.verifyURL", c.EIMZO.VerifyURL); err != nil {
			return err
		}
	}
	if c.Secrets.MasterKey != "" && len(c.Secrets.MasterKey) < 32 {
		return fmt.Errorf("config: secrets.masterKey: at least 32 characters")
	}
	if err := c.Seal.validate(); err != nil {
		return err
	}
	return c.Admin.validate()
}

// validate checks the seal's files (both or neither, readable PEM of a
// certificate and its key) and its time-stamp authority's URL.
func (s SealConfig) validate() error {
	switch {
	case (s.CertFile == "") != (s.KeyFile == ""):
		return fmt.Errorf("config: seal.certFile and seal.keyFile: set both (a PEM certificate and its key) or neither (a generated seal)")
	case s.CertFile != "":
		if _, err := pades.LoadIdentity(s.CertFile, s.KeyFile); err != nil {
			return fmt.Errorf("config: seal.certFile, seal.keyFile: %w", err)
		}
	}
	if s.TSAURL != "" {
		return absoluteURL("seal.tsaURL", s.TSAURL)
	}
	return nil
}
