package embedded

import (
	"bytes"
	"net/http"

	"contracts/server"
	"contracts/server/wire"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

type createdContract struct {
	ID string `json:"id"`
}

// createContract is POST /v1/contracts; every rule is signflow's.
func (h *handler) createContract(c echo.Context) error {
	var req wire.ContractRequest
	err := wire.BindContract(c, &req)
	var in *signflow.ContractInput
	if err == nil {
		in, err = req.Input(wire.Major)
	}
	if err != nil {
		// A refusal of the body is given to a confirmed caller only.
		if _, aerr := h.svc.Confirmed(access(c)); aerr != nil {
			return aerr
		}
		return err
	}
	out, err := h.svc.CreateContract(access(c), in, server.Actor(c))
	if err != nil {
		return err
	}
	return server.JSONBlob(c, http.StatusOK, appendCreated(nil, out.ID))
}

// appendCreated is server.JSON's answer of createdContract{ID: id}, written
// by hand: every create sends one.
func appendCreated(b []byte, id string) []byte {
	return append(appendString(append(b, `{"id":`...), id), "}\n"...)
}

// getContract is GET /v1/contracts/{id}: the embedded read response, the
// most polled answer of the interface. The service keeps it, encoded, for
// the next readers while the contract and what it shows are unchanged.
func (h *handler) getContract(c echo.Context) error {
	b, err := h.svc.ContractAnswer(access(c), c.Param("id"), "embedded", encodeContract)
	if err != nil {
		return err
	}
	return server.JSONBlob(c, http.StatusOK, b)
}

// encodeContract is the contract read response of v in a slice of its own.
func encodeContract(v *signflow.ContractView) []byte {
	bp := bufPool.Get().(*[]byte)
	b := appendContract((*bp)[:0], v)
	out := bytes.Clone(b)
	if cap(b) <= 64<<10 {
		*bp = b
		bufPool.Put(bp)
	}
	return out
}

// writeContract answers the contract read response (contract_json.go).
func writeContract(c echo.Context, v *signflow.ContractView) error {
	bp := bufPool.Get().(*[]byte)
	b := appendContract((*bp)[:0], v)
	err := server.JSONBlob(c, http.StatusOK, b)
	if cap(b) <= 64<<10 {
		*bp = b
		bufPool.Put(bp)
	}
	return err
}

// contractPDF is GET /v1/contracts/{id}/pdf?lang=uz|ru|en (default uz).
func (h *handler) contractPDF(c echo.Context) error {
	return wire.ContractPDF(c, h.svc, h.pdfs, access(c), h.baseURL)
}

// cancelContract is POST /v1/contracts/{id}/cancel (docs/decisions.md): it
// answers the contract's read response.
func (h *handler) cancelContract(c echo.Context) error {
	v, err := h.svc.Cancel(access(c), c.Param("id"), server.Actor(c))
	if err != nil {
		return err
	}
	return writeContract(c, v)
}

// completeContract is POST /v1/contracts/{id}/complete (docs/decisions.md).
func (h *handler) completeContract(c echo.Context) error {
	v, err := h.svc.Complete(access(c), c.Param("id"), server.Actor(c))
	if err != nil {
		return err
	}
	return writeContract(c, v)
}
