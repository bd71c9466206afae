package signpage

import (
	"bytes"
	"encoding/base64"
	"errors"
	"net/http"

	"contracts/server/document"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// How the page confirms a signature, by the session's method.
const (
	flowOTP      = "otp"      // OTP_SMS: a code sent by SMS
	flowIdentity = "identity" // MY_ID, ABLE_ID: the provider in a popup
	flowEIMZO    = "eimzo"    // E_IMZO: the signer's local E-IMZO client
)

var flowOf = map[string]string{signflow.MethodOTP: flowOTP, signflow.MethodMyID: flowIdentity,
	signflow.MethodAbleID: flowIdentity, signflow.MethodEIMZO: flowEIMZO}

// pageData is what page.html renders.
type pageData struct {
	Lang, Title, ServiceName, AssetVersion string
	T                                      dict
	Doc                                    *document.Doc
	// Flow is how the signer confirms (flowOTP, ...); empty with MethodText
	// when the session's method is not usable on this service.
	Flow, MethodText string
	ReviewText       string
	// IdentityTitle and IdentityAgain name the provider of an identity flow.
	IdentityTitle, IdentityAgain  string
	Creator                       bool // the signer is the creator's party: rejecting cancels
	Witness                       bool // the signer is a witness: it cannot reject
	RedirectURL                   string
	Reason, ErrorTitle, ErrorText string
	Config                        pageConfig
}

// pageConfig is handed to sign.js as JSON.
type pageConfig struct {
	Source       string    `json:"source"`
	ParentOrigin string    `json:"parentOrigin,omitempty"`
	Error        string    `json:"error,omitempty"` // the ERROR message when the session cannot be used
	Method       string    `json:"method,omitempty"`
	Flow         string    `json:"flow,omitempty"`
	SessionID    string    `json:"sessionId,omitempty"`
	ContractID   string    `json:"contractId,omitempty"`
	RedirectURL  string    `json:"redirectUrl,omitempty"`
	Code         *codeJSON `json:"code,omitempty"`     // a code already sent and still valid
	Provider     string    `json:"provider,omitempty"` // identity flow: the provider's name
	SignerIN     string    `json:"signerIn,omitempty"` // E-IMZO flow: the signer's keys come first
	// SignerCompany tells the E-IMZO flow that the signer is a company,
	// whose keys carry its TIN; a person's carry a PINFL alone.
	SignerCompany bool       `json:"signerCompany,omitempty"`
	IDLabel       string     `json:"idLabel,omitempty"` // E-IMZO flow: "TIN" or "PINFL" in the page's language
	EIMZO         *eimzoJSON `json:"eimzo,omitempty"`
	T             dict       `json:"t"`
	// Witnessed: the contract waits for witnesses too (common.js's done text).
	Witnessed bool `json:"witnessed,omitempty"`
}

// eimzoJSON tells sign.js how to reach the local E-IMZO client and what
// to sign.
type eimzoJSON struct {
	SecureURL string   `json:"secureUrl"` // websocket for an HTTPS page
	PlainURL  string   `json:"plainUrl"`  // websocket for an HTTP page
	APIKeys   []string `json:"apiKeys"`   // domain, key, domain, key, ...: CAPIWS.apikey's arguments
	// Data64 is the base64 of the document hash as text, the content of
	// the attached PKCS#7.
	Data64 string `json:"data64,omitempty"`
	// Reject64 is the rejection's content (signflow.RejectContent), base64.
	Reject64 string `json:"reject64,omitempty"`
}

// Reasons of the ERROR message; they carry no data.
const (
	reasonNotFound = "session not found"
	reasonExpired  = "session expired"
	reasonClosed   = "session closed"
)

// page serves GET /sign/<token>: the contract and its actions, or, for an
// unknown token (404) or a session that can no longer sign (403), a page
// that says why and posts ERROR to its parent.
func (h *handler) page(c echo.Context) error {
	v, err := h.svc.SigningSession(c.Param("token"))
	var sess *signflow.SignSession
	if v != nil {
		sess = v.Session
	}
	lang := requestLang(c)
	if sess != nil {
		lang = sess.Lang
	}
	d := &pageData{Lang: lang, T: tr(lang), ServiceName: h.serviceName, AssetVersion: h.files.Version}
	d.Title = d.T["pageTitle"]
	d.Config = pageConfig{Source: h.source, T: d.T}
	status := http.StatusOK
	switch {
	case err == nil:
		h.fill(d, v)
	case errors.Is(err, signflow.ErrSessionNotFound):
		status = http.StatusNotFound
		d.fail(reasonNotFound, "notFound")
	case errors.Is(err, signflow.ErrSessionExpired):
		status = http.StatusForbidden
		d.fail(reasonExpired, "expired")
	case errors.Is(err, signflow.ErrSessionClosed):
		status = http.StatusForbidden
		d.fail(reasonClosed, "closed")
	default:
		return err
	}
	parent := ""
	if sess != nil {
		parent = sess.ParentOrigin
	}
	d.Config.ParentOrigin = parent
	var buf bytes.Buffer
	if err := h.tmpl.Execute(&buf, d); err != nil {
		return err
	}
	connect := ""
	if d.Flow == flowEIMZO {
		connect = h.eimzoCSP
	}
	pageHeaders(c.Response().Header(), parent, connect)
	return c.HTMLBlob(status, buf.Bytes())
}

func (d *pageData) fail(reason, key string) {
	d.Reason, d.Config.Error = reason, reason
	d.ErrorTitle, d.ErrorText = d.T[key+"Title"], d.T[key+"Text"]
	d.Title = d.ErrorTitle
}

// fill puts the contract and the session's actions into the page.
func (h *handler) fill(d *pageData, v *signflow.SigningView) {
	s, c, t := v.Session, v.Contract, d.T
	d.Creator = s.SignerIN == c.CreatorIN
	d.Witness, d.Config.Witnessed = c.Witness(s.SignerIN) != nil, len(c.Witnesses) > 0
	d.RedirectURL = s.RedirectURL
	d.Config.Method, d.Config.SessionID, d.Config.ContractID, d.Config.RedirectURL = s.Method, s.ID, c.ID, s.RedirectURL
	if d.Flow = flowOf[s.Method]; !h.svc.MethodUsable(s.Method) {
		d.Flow = "" // never offer what would fail (a rejection is confirmed by the method too): say so
	}
	switch d.Flow {
	case "":
		d.MethodText = t.F("methodText", "method", t.Or("method."+s.Method, s.Method))
	case flowOTP:
		d.ReviewText = t["reviewText"]
		if v.Code != nil {
			d.Config.Code = codeBody(v.Code)
		}
	case flowIdentity:
		name := t.Or("method."+s.Method, s.Method)
		d.ReviewText = t.F("reviewIdentityText", "provider", name)
		d.IdentityTitle, d.IdentityAgain = t.F("idpWaitTitle", "provider", name), t.F("idpAgain", "provider", name)
		d.Config.Provider = name
	case flowEIMZO:
		d.ReviewText = t["reviewEIMZOText"]
		ez := h.eimzo
		ez.Data64 = base64.StdEncoding.EncodeToString([]byte(c.Hash))
		ez.Reject64 = base64.StdEncoding.EncodeToString([]byte(signflow.RejectContent(c.Hash)))
		d.Config.EIMZO, d.Config.SignerIN, d.Config.IDLabel = &ez, s.SignerIN, document.IDLabel(t, s.SignerIN)
		d.Config.SignerCompany = signflow.ClientTypeOf(s.SignerIN) == signflow.ClientCompany
	}
	d.Config.Flow = d.Flow
	d.Doc = document.New(c.AsRecorded(), nil, d.Lang, document.Options{Viewer: s.SignerIN})
	d.Title = d.Doc.Title + " · " + d.Doc.NumberText
}
