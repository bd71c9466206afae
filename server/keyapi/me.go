package keyapi

import (
	"net/http"

	"contracts/server"
	"contracts/server/wire"

	"github.com/labstack/echo/v4"
)

// keyStatus is the spec's "Key status".
type keyStatus struct {
	Name           string     `json:"name"`
	OwnerIN        string     `json:"ownerIn"`
	OwnerLegalName string     `json:"ownerLegalName"`
	Scopes         []string   `json:"scopes"`
	AllTemplates   bool       `json:"allTemplates"`
	TemplateIDs    []string   `json:"templateIds"`
	ExpiresAt      *wire.Time `json:"expiresAt"`
}

// me is GET /v1/me: whether the key works and what it may do. It needs no
// scope. ownerLegalName is the owner's legal name, else its full name.
func (h *handler) me(c echo.Context) error {
	k := apiKey(c)
	out := keyStatus{Name: k.Name, OwnerIN: k.OwnerIN, Scopes: nonNil(k.Scopes), AllTemplates: k.AllTemplates,
		TemplateIDs: nonNil(k.TemplateIDs), ExpiresAt: wire.OptTime(k.ExpiresAt)}
	if owner := h.svc.KeyOwner(k); owner != nil {
		out.OwnerLegalName = owner.LegalName
		if out.OwnerLegalName == "" {
			out.OwnerLegalName = owner.Name()
		}
	}
	return server.JSON(c, http.StatusOK, out)
}

// nonNil is list, or an empty list for nil, so JSON shows [] not null.
func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
