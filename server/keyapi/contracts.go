package keyapi

import (
	"net/http"

	"contracts/server"
	"contracts/server/wire"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// createContract is POST /v1/contracts. An empty party is the key owner;
// both parties foreign is 403, both empty 400 (rule 2 of the key interface).
func (h *handler) createContract(c echo.Context) error {
	var req wire.ContractRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	in, err := req.Input(wire.Minor)
	if err != nil {
		return err
	}
	ct, err := h.svc.CreateContract(access(c), in, actor(c))
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

// cancelContract is POST /v1/contracts/{id}/cancel (DESIGN §4): the creator
// withdraws a CREATED contract. It answers the contract read response.
func (h *handler) cancelContract(c echo.Context) error {
	return h.change(c, h.svc.Cancel)
}

// completeContract is POST /v1/contracts/{id}/complete (DESIGN §4): the
// creator marks an ACTIVE contract fulfilled.
func (h *handler) completeContract(c echo.Context) error {
	return h.change(c, h.svc.Complete)
}

func (h *handler) change(c echo.Context, apply func(*signflow.Access, string, signflow.Actor) (*signflow.Contract, error)) error {
	a := access(c)
	ct, err := apply(a, c.Param("id"), actor(c))
	if err != nil {
		return err
	}
	// The change has itself checked that the key reads the contract, so a
	// key with CONTRACTS_WRITE alone gets the answer too.
	reader := *a
	reader.Scopes = []string{signflow.ScopeContractsRead}
	v, err := h.svc.Contract(&reader, ct.ID)
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, contractOf(v, true))
}
