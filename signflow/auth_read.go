package signflow

import (
	"errors"
	"slices"
)

// credsCheck is what a read confirms in its own transaction when its
// caller was authenticated from the app cache without reading the
// credentials version (AuthenticateTokenFor): the version the app was
// cached at, and the token to authenticate again in full should it differ.
type credsCheck struct {
	token   string
	version uint64
}

// errCredsMoved says that the credentials version of a read's snapshot is
// not the one its caller was authenticated at.
var errCredsMoved = errors.New("signflow: the credentials changed since the app was cached")

// AuthenticateTokenFor is AuthenticateToken for a route that needs scope
// and whose service call confirms the credentials in the transaction of
// its own read (ContractAnswer), saving a round trip on a Shared store: an
// app in the cache that holds scope is taken as cached, and the Access
// returned carries the check. A refusal is never made on unconfirmed
// credentials: it is made again by AuthenticateToken.
func (s *Service) AuthenticateTokenFor(token, scope string) (*App, *Access, error) {
	if _, shared := s.store.(Shared); !shared {
		app, err := s.AuthenticateToken(token)
		if err != nil {
			return nil, nil, err
		}
		return app, app.Access(), nil
	}
	var check *credsCheck
	app, err := s.authenticateToken(token, func(id string) (*App, error) {
		if e, _ := s.apps.get(id); e.app != nil && slices.Contains(e.app.Scopes, scope) {
			check = &credsCheck{token: token, version: e.version}
			return e.app, nil
		}
		return s.cachedApp(id)
	})
	if err != nil && check != nil {
		check = nil
		app, err = s.AuthenticateToken(token)
	}
	if err != nil {
		return nil, nil, err
	}
	a := app.Access()
	a.creds = check
	return app, a, nil
}

// confirmCreds returns an error unless tx's snapshot has the credentials
// version that a's app was cached at (AuthenticateTokenFor).
func confirmCreds(tx Tx, a *Access) error {
	if a.creds == nil {
		return nil
	}
	st, ok := tx.(SharedTx)
	if !ok {
		return errCredsMoved
	}
	v, err := st.CredentialsVersion()
	if err != nil {
		return err
	}
	if v != a.creds.version {
		return errCredsMoved
	}
	return nil
}

// confirmed runs read with a, whose credentials are unconfirmed
// (AuthenticateTokenFor); if read fails, for whatever reason, it
// authenticates again in full and runs read with the checked access.
func (s *Service) confirmed(a *Access, read func(*Access) ([]byte, error)) ([]byte, error) {
	out, err := read(a)
	if err == nil {
		return out, nil
	}
	checked, err := s.Confirmed(a)
	if err != nil {
		return nil, err
	}
	return read(checked)
}

// Confirmed returns a, or, when a's app was taken from the cache without
// its credentials being confirmed (AuthenticateTokenFor), the access of a
// full authentication of its token: a refusal or answer given before the
// service call that confirms them must not rest on the cached app.
func (s *Service) Confirmed(a *Access) (*Access, error) {
	if a.creds == nil {
		return a, nil
	}
	app, err := s.AuthenticateToken(a.creds.token)
	if err != nil {
		return nil, err
	}
	checked := app.Access()
	checked.Interface = a.Interface
	return checked, nil
}
