// Package pdf renders a contract as a PDF: the contract itself, its
// signatures and an audit-trail page with the document hash and a QR code
// that leads to the verification page. Every word and number it prints
// comes from the contract's document (server/document) in its language;
// the PDF is a function of that document alone, so the same contract
// version renders to the same bytes.
package pdf

import (
	"io"

	"contracts/server/document"
	"contracts/signflow"
)

// Contract renders a contract view with its audit trail in lang.
func Contract(w io.Writer, v *signflow.ContractView, audit []*signflow.AuditEvent, lang, verifyURL string) error {
	return Render(w, document.New(v, audit, lang, document.Options{VerifyURL: verifyURL}))
}
