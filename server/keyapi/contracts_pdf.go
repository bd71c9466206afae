package keyapi

import (
	"contracts/server/wire"

	"github.com/labstack/echo/v4"
)

// contractPDF is GET /v1/contracts/{id}/pdf?lang=uz|ru|en (default uz): the
// contract with its audit trail and a QR code of the public verify page.
func (h *handler) contractPDF(c echo.Context) error {
	return wire.ContractPDF(c, h.svc, h.pdfs, access(c), h.verifyBase)
}
