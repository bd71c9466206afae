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

// readClient is GET /v1/clients/{in}, the party check by number: 400 for a
// number that is not 14 or 9 digits, 404 when no such client is registered.
func (h *handler) readClient(c echo.Context) error {
	in := c.Param("in")
	if !signflow.ValidIN(in) {
		return signflow.Errorf(signflow.EINVALID, "in: must be 14 digits (individual) or 9 digits (company)")
	}
	cl, err := h.svc.FindClient(in)
	if signflow.ErrorCode(err) == signflow.ENOTFOUND {
		return signflow.Errorf(signflow.ENOTFOUND, "Client not found.")
	} else if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, clientResponse{IN: cl.IN, FirstName: wire.OptString(cl.FirstName),
		LastName: wire.OptString(cl.LastName), MidName: wire.OptString(cl.MidName), LegalName: wire.OptString(cl.LegalName),
		Type: cl.Type, Verified: cl.Verified})
}
