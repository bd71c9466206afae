package signflow

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
