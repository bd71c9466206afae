package signflow

import (
	"encoding/base64"
	"strconv"
	"strings"
	"time"
)

// IssueToken checks an app's credentials and returns a bearer token valid
// for TokenTTL. A wrong id or secret is EUNAUTHORIZED without saying which.
func (s *Service) IssueToken(appID, secret string) (string, error) {
	var app *App
	err := s.store.View(func(tx Tx) (err error) { app, err = tx.App(appID); return err })
	if ErrorCode(err) == ENOTFOUND {
		// Hash anyway so that an unknown id costs what a wrong secret costs.
		equalHash(HashSecret(secret), make([]byte, 32))
		return "", errBadAppCredentials
	} else if err != nil {
		return "", err
	}
	if !equalHash(HashSecret(secret), app.SecretHash) {
		return "", errBadAppCredentials
	}
	now := s.opt.Now()
	if err := app.Usable(now); err != nil {
		return "", err
	}
	exp := strconv.FormatInt(now.Add(TokenTTL).Unix(), 10)
	gen := strconv.FormatInt(app.SecretGen, 10)
	mac := base64.RawURLEncoding.EncodeToString(s.mac("token", app.ID, gen, exp))
	return app.ID + "." + gen + "." + exp + "." + mac, nil
}

var (
	errBadAppCredentials = Errorf(EUNAUTHORIZED, "Invalid appId or appSecret.")
	errBadToken          = Errorf(EUNAUTHORIZED, "The access token is missing, invalid or expired.")
	errBadKey            = Errorf(EUNAUTHORIZED, "The API key is missing, invalid, revoked or expired.")
)

// AuthenticateToken returns the app a bearer token belongs to. It reads one
// record: the token carries its app id, secret generation and expiry under
// an HMAC, so a rotated secret invalidates every token issued before.
func (s *Service) AuthenticateToken(token string) (*App, error) {
	return s.authenticateToken(token, nil)
}

// authenticateToken checks the token, and the app appOf gives for its id
// (cachedApp when nil: a method value would be allocated per call).
func (s *Service) authenticateToken(token string, appOf func(id string) (*App, error)) (*App, error) {
	t, ok := s.tokens.get(token)
	if !ok {
		var err error
		if t, err = s.checkTokenMAC(token); err != nil {
			return nil, err
		}
		s.tokens.put(token, t)
	}
	now := s.opt.Now()
	if !now.Before(time.Unix(t.exp, 0)) {
		return nil, errBadToken
	}
	var app *App
	var err error
	if appOf != nil {
		app, err = appOf(t.app)
	} else {
		app, err = s.cachedApp(t.app)
	}
	if ErrorCode(err) == ENOTFOUND {
		return nil, errBadToken
	} else if err != nil {
		return nil, err
	}
	if strconv.FormatInt(app.SecretGen, 10) != t.gen {
		return nil, errBadToken
	}
	if err := app.Usable(now); err != nil {
		return nil, err
	}
	return app, nil
}

// checkTokenMAC returns the claims of a token whose HMAC holds.
func (s *Service) checkTokenMAC(token string) (tokenClaims, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 4 {
		return tokenClaims{}, errBadToken
	}
	mac, err := base64.RawURLEncoding.DecodeString(parts[3])
	if err != nil || !equalHash(mac, s.mac("token", parts[0], parts[1], parts[2])) {
		return tokenClaims{}, errBadToken
	}
	exp, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil {
		return tokenClaims{}, errBadToken
	}
	return tokenClaims{app: parts[0], gen: parts[1], exp: exp}, nil
}

// AuthenticateKey returns the API key with the raw text. A key that is
// missing, malformed, unknown, revoked or expired is EUNAUTHORIZED.
func (s *Service) AuthenticateKey(raw string) (*APIKey, error) {
	if !strings.HasPrefix(raw, KeyPrefix) || len(raw) > 200 {
		return nil, errBadKey
	}
	var key *APIKey
	err := s.store.View(func(tx Tx) (err error) { key, err = tx.KeyByHash(HashSecret(raw)); return err })
	if ErrorCode(err) == ENOTFOUND {
		return nil, errBadKey
	} else if err != nil {
		return nil, err
	}
	if key.Usable(s.opt.Now()) != nil {
		return nil, errBadKey
	}
	return key, nil
}

// KeyOwner returns the admin's record of the key's owner, nil when there is none.
func (s *Service) KeyOwner(k *APIKey) *Client {
	c, _ := s.Owner(k.OwnerIN)
	return c
}
