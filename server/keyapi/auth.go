package keyapi

import (
	"strings"

	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// HeaderAPIKey carries the key on every request of the key interface.
const HeaderAPIKey = "X-API-Key"

var (
	errNoKey = signflow.Errorf(signflow.EUNAUTHORIZED, "The API key is missing, invalid, revoked or expired.")
	// A bearer token belongs to the embedded interface; keys work only here.
	errBearer = signflow.Errorf(signflow.EUNAUTHORIZED,
		"This interface takes an API key in the X-API-Key header; bearer tokens are not accepted.")
)

// authenticate turns the X-API-Key header into the key and takes one event
// from the key's rate limit. A missing, wrong, revoked or expired key is
// 401; too many requests are 429 with Retry-After.
func (h *handler) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		raw := strings.TrimSpace(c.Request().Header.Get(HeaderAPIKey))
		if raw == "" {
			if c.Request().Header.Get(echo.HeaderAuthorization) != "" {
				return errBearer
			}
			return errNoKey
		}
		key, err := h.svc.AuthenticateKey(raw)
		if err != nil {
			return err
		}
		if err := h.limit.Allow(key.ID); err != nil {
			return err
		}
		return next(&keyed{Context: c, key: key, access: key.Access()})
	}
}

// keyed is the request's context once its key is checked: the key and
// what it may do ride in fields rather than in echo's store, a map made
// per request.
type keyed struct {
	echo.Context
	key    *signflow.APIKey
	access *signflow.Access
}

// apiKey is the authenticated key of the request.
func apiKey(c echo.Context) *signflow.APIKey { return c.(*keyed).key }

// access is what the request's key may do.
func access(c echo.Context) *signflow.Access { return c.(*keyed).access }
