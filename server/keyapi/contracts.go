package keyapi

import (
	"net/http"

	"contracts/server"
	"contracts/server/wire"

	"github.com/labstack/echo/v4"
)

// createRequest is the contract create request with what only this
// interface takes: notify, to text the other parties an invitation to the
// cabinet, in lang.
type createRequest struct {
	wire.ContractRequest
	Notify string `json:"notify"`
	Lang   string `json:"lang"`
}

// createContract is POST /v1/contracts. An empty party is the key owner;
// both parties foreign is 403, both empty 400 (rule 2 of the key interface).
func (h *handler) createContract(c echo.Context) error {
	var req createRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	in, err := req.Input(wire.Minor)
	if err != nil {
		return err
	}
	in.Notify, in.Lang, in.CabinetURL = req.Notify, req.Lang, h.baseURL+"/cabinet"
	ct, err := h.svc.CreateContract(access(c), in, server.Actor(c))
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, map[string]string{"id": ct.ID})
}

// readContract is GET /v1/contracts/{id}: 404 when unknown, 403 when the
// owner takes no part or the template is outside the key's.
func (h *handler) readContract(c echo.Context) error {
	v, err := h.svc.Contract(access(c), c.Param("id"))
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, contractOf(v, true))
}

// cancelContract is POST /v1/contracts/{id}/cancel (docs/decisions.md): the creator
// withdraws a CREATED contract. It answers the contract read response.
func (h *handler) cancelContract(c echo.Context) error {
	v, err := h.svc.Cancel(access(c), c.Param("id"), server.Actor(c))
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, contractOf(v, true))
}

// completeContract is POST /v1/contracts/{id}/complete (docs/decisions.md): the
// creator marks an ACTIVE contract fulfilled.
func (h *handler) completeContract(c echo.Context) error {
	v, err := h.svc.Complete(access(c), c.Param("id"), server.Actor(c))
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, contractOf(v, true))
}
