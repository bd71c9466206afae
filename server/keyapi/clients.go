package keyapi

import (
	"net/http"

	"contracts/server"
	"contracts/server/wire"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// clientResponse is the spec's "Client response" on the key interface:
// never the passport or phone, and not the internal id (embedded only).
type clientResponse struct {
	IN        string  `json:"in"`
	FirstName *string `json:"firstName"`
	LastName  *string `json:"lastName"`
	MidName   *string `json:"midName"`
	LegalName *string `json:"legalName"`
	Type      string  `json:"type"`
	Verified  bool    `json:"verified"`
}

// readClient is GET /v1/clients/{in}, the party check by number, as the
// key's tenant knows it (its apps' claims, or the owner's record): 400 for
// a number that is not 14 or 9 digits, 404 when the tenant holds no record.
func (h *handler) readClient(c echo.Context) error {
	in := c.Param("in")
	if err := signflow.CheckIN("in", in); err != nil {
		return err
	}
	cl, err := h.svc.FindClient(access(c), in)
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, clientResponse{IN: cl.IN, FirstName: wire.OptString(cl.FirstName),
		LastName: wire.OptString(cl.LastName), MidName: wire.OptString(cl.MidName), LegalName: wire.OptString(cl.LegalName),
		Type: cl.Type, Verified: cl.Verified})
}
