package appliance

import (
	"context"
	"crypto/sha256"
	"net/url"
	"time"

	"contracts/internal/config"
	"contracts/signflow"
	"contracts/signflow/eimzo"
	"contracts/signflow/idp"
	"contracts/signflow/sms"
)

// identityProviders builds the configured face-verification providers and
// the E-IMZO verifier; methods left unconfigured stay off.
func identityProviders(cfg *config.Config, masterKey string) (map[string]signflow.IdentityProvider, signflow.EIMZOVerifier, error) {
	providers := map[string]signflow.IdentityProvider{}
	pkceKey := sha256.Sum256([]byte("contracts pkce key\x00" + masterKey))
	for method, c := range map[string]config.IDPConfig{signflow.MethodMyID: cfg.Identity.MyID, signflow.MethodAbleID: cfg.Identity.AbleID} {
		if !c.On() {
			continue
		}
		if c.Flow == "web" {
			p, err := idp.NewMyIDWeb(idp.MyIDWebConfig{BaseURL: c.BaseURL, WebURL: c.WebURL, ClientID: c.ClientID,
				ClientSecret: c.ClientSecret, RedirectURL: idp.CallbackURL(cfg.Embedded.BaseURL), Timeout: c.Timeout})
			if err != nil {
				return nil, nil, err
			}
			providers[method] = p
			continue
		}
		name := map[string]string{signflow.MethodMyID: "MyID", signflow.MethodAbleID: "AbleID"}[method]
		p, err := idp.New(idp.Config{Name: name, AuthURL: c.AuthURL, TokenURL: c.TokenURL, UserinfoURL: c.UserinfoURL,
			ClientID: c.ClientID, ClientSecret: c.ClientSecret, Scope: c.Scope, InClaim: c.InClaim, AuthParams: c.AuthParams,
			RedirectURL: idp.CallbackURL(cfg.Embedded.BaseURL), Timeout: c.Timeout, PKCEKey: pkceKey[:]})
		if err != nil {
			return nil, nil, err
		}
		providers[method] = p
	}
	if cfg.EIMZO.VerifyURL == "" {
		return providers, nil, nil // a typed nil in the interface would not be nil
	}
	host := cfg.EIMZO.Host
	if host == "" {
		if u, err := url.Parse(cfg.Embedded.BaseURL); err == nil {
			host = u.Hostname()
		}
	}
	v, err := eimzo.New(eimzo.Config{VerifyURL: cfg.EIMZO.VerifyURL, Host: host, Timeout: cfg.EIMZO.Timeout, SkipTimestamp: cfg.EIMZO.SkipTimestamp})
	if err != nil {
		return nil, nil, err
	}
	return providers, v, nil
}

// smsSender is the configured SMS provider. A gateway with a login is
// logged in to at once: one that refuses our credentials is a warning of
// /readyz, and the appliance starts all the same.
func (a *Appliance) smsSender() signflow.SMSSender {
	c := a.cfg.SMS
	switch c.Provider {
	case "http":
		return sms.NewHTTP(c.HTTP.URL, c.HTTP.Headers, c.HTTP.Timeout)
	case "eskiz":
		e := sms.NewEskiz(sms.EskizConfig{BaseURL: c.Eskiz.BaseURL, Email: c.Eskiz.Email, Password: c.Eskiz.Password,
			From: c.Eskiz.From, CallbackURL: c.Eskiz.CallbackURL, Timeout: c.HTTP.Timeout}, a.log, sms.NewSendCounter(a.metrics.Registry))
		ctx, cancel := context.WithTimeout(context.Background(), c.HTTP.Timeout)
		defer cancel()
		if err := e.Login(ctx); sms.IsRefused(err) {
			a.warn("sms.eskiz: Eskiz refused sms.eskiz.email and sms.eskiz.password (" + err.Error() + "); no SMS can be sent until they are right")
		} else if err != nil {
			a.warn("sms.eskiz: Eskiz did not answer the login at start (" + err.Error() + "); the appliance logs in again on the first SMS")
		}
		return e
	case "playmobile":
		return sms.NewPlayMobile(sms.PlayMobileConfig{BaseURL: c.PlayMobile.BaseURL, Login: c.PlayMobile.Login, Password: c.PlayMobile.Password,
			Originator: c.PlayMobile.Originator, Timeout: c.HTTP.Timeout}, a.log, sms.NewSendCounter(a.metrics.Registry))
	}
	return sms.Console{Log: a.log}
}

// smsQueueTimeout is the longest a queued text may take: every try of a
// gateway that retries, and the waits between them.
func smsQueueTimeout(cfg *config.Config) time.Duration {
	if cfg.SMS.Provider != "eskiz" && cfg.SMS.Provider != "playmobile" {
		return cfg.SMS.HTTP.Timeout
	}
	d := time.Duration(len(sms.Backoff)+1) * 2 * cfg.SMS.HTTP.Timeout // a try may log in first
	for _, b := range sms.Backoff {
		d += b
	}
	return d
}

// warn adds a warning of /readyz and logs it.
func (a *Appliance) warn(w string) {
	a.warnings = append(a.warnings, w)
	a.log.Warn().Msg(w)
}

// configuredMethods are the signing methods whose providers are set up.
func configuredMethods(cfg *config.Config) map[string]bool {
	return map[string]bool{
		signflow.MethodMyID:   cfg.Identity.MyID.On(),
		signflow.MethodAbleID: cfg.Identity.AbleID.On(),
		signflow.MethodEIMZO:  cfg.EIMZO.VerifyURL != "",
	}
}
