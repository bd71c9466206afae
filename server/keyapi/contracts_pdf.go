package keyapi

import (
	"bytes"
	"net/http"
	"slices"
	"strings"

	"contracts/server/pdf"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// contractPDF is GET /v1/contracts/{id}/pdf?lang=uz|ru|en (default uz): the
// contract with its audit trail and a QR code of the public verify page.
func (h *handler) contractPDF(c echo.Context) error {
	lang := c.QueryParam("lang")
	if lang == "" {
		lang = "uz"
	}
	if !slices.Contains(signflow.Languages, lang) {
		return signflow.Errorf(signflow.EINVALID, "lang: must be uz, ru or en")
	}
	v, err := h.svc.Contract(access(c), c.Param("id"))
	if err != nil {
		return err
	}
	audit, err := h.svc.AuditTrail(v.ID)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := pdf.Contract(&buf, v, audit, lang, h.verifyURL(v.Contract)); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `inline; filename="contract-`+v.Number+`.pdf"`)
	return c.Blob(http.StatusOK, "application/pdf", buf.Bytes())
}

// verifyURL is the public verify page of the contract on the embedded
// listener, carrying the first 16 hex digits of the document hash.
func (h *handler) verifyURL(c *signflow.Contract) string {
	hash := c.Hash
	if len(hash) > 16 {
		hash = hash[:16]
	}
	return strings.TrimRight(h.verifyBase, "/") + "/verify/" + c.ID + "?h=" + hash
}
