package appliance

import (
	"crypto/sha256"
	"net/url"

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
		if c.AuthURL == "" {
			continue
		}
		name := map[string]string{signflow.MethodMyID: "MyID", signflow.MethodAbleID: "AbleID"}[method]
		p, err := idp.New(idp.Config{Name: name, AuthURL: c.AuthURL, TokenURL: c.TokenURL, UserinfoURL: c.UserinfoURL,
			ClientID: c.ClientID, ClientSecret: c.ClientSecret, Scope: c.Scope, InClaim: c.InClaim,
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

// smsSender is the configured SMS provider.
func (a *Appliance) smsSender() signflow.SMSSender {
	if a.cfg.SMS.Provider == "http" {
		return sms.NewHTTP(a.cfg.SMS.HTTP.URL, a.cfg.SMS.HTTP.Headers, a.cfg.SMS.HTTP.Timeout)
	}
	return sms.Console{Log: a.log}
}

// configuredMethods are the signing methods whose providers are set up.
func configuredMethods(cfg *config.Config) map[string]bool {
	return map[string]bool{
		signflow.MethodMyID:   cfg.Identity.MyID.AuthURL != "",
		signflow.MethodAbleID: cfg.Identity.AbleID.AuthURL != "",
		signflow.MethodEIMZO:  cfg.EIMZO.VerifyURL != "",
	}
}
