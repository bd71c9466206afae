package keyapi

import (
	"contracts/server/wire"

	"github.com/labstack/echo/v4"
)

// ledger is GET /v1/contracts/{id}/payments, money in minor units.
func (h *handler) ledger(c echo.Context) error {
	return wire.LedgerAnswer(c, h.svc, access(c), wire.Minor)
}

// recordPayment is POST /v1/contracts/{id}/payments: the seller records
// money received.
func (h *handler) recordPayment(c echo.Context) error {
	return wire.RecordPayment(c, h.svc, access(c), wire.Minor)
}

// payLink is POST /v1/contracts/{id}/payment-links: a link to Payme's or
// Click's pay page.
func (h *handler) payLink(c echo.Context) error {
	return wire.PayLink(c, h.svc, access(c), wire.Minor)
}
