// Package payments serves the payment providers' calls on the embedded
// listener: Payme's Merchant API at /payments/payme and Click's SHOP API
// at /payments/click/prepare and /payments/click/complete. The rules live
// in signflow; this package speaks each provider's protocol.
package payments

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"contracts/server"
	"contracts/server/i18n"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// Deps is what the providers' routes need.
type Deps struct {
	Service *signflow.Service
	Log     zerolog.Logger
}

type handler struct {
	svc *signflow.Service
	log zerolog.Logger
}

// Register mounts the providers' routes on e.
func Register(e *echo.Echo, d Deps) {
	h := &handler{svc: d.Service, log: d.Log}
	e.POST("/payments/payme", h.payme)
	e.POST("/payments/click/prepare", h.clickPrepare)
	e.POST("/payments/click/complete", h.clickComplete)
}

// paymeRequest is a JSON-RPC 2.0 call as Payme sends it.
type paymeRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// paymeAnswer is the JSON-RPC answer, always with HTTP 200.
type paymeAnswer struct {
	JSONRPC string               `json:"jsonrpc"`
	ID      json.RawMessage      `json:"id"`
	Result  any                  `json:"result,omitempty"`
	Error   *signflow.PaymeError `json:"error,omitempty"`
}

// paymeKey reads the key of "Authorization: Basic base64(Paycom:<key>)".
func paymeKey(header string) string {
	scheme, cred, ok := strings.Cut(header, " ")
	if !ok || !strings.EqualFold(scheme, "Basic") {
		return ""
	}
	plain, err := base64.StdEncoding.DecodeString(strings.TrimSpace(cred))
	if err != nil {
		return ""
	}
	user, key, ok := strings.Cut(string(plain), ":")
	if !ok || user != "Paycom" {
		return ""
	}
	return key
}

// payme answers one Merchant API call. The merchant is checked before
// anything else, the body read after.
func (h *handler) payme(c echo.Context) error {
	body, readErr := server.ReadBody(c)
	var req paymeRequest
	parseErr := json.Unmarshal(body, &req)
	id := req.ID
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	answer := func(result any, err error) error {
		a := paymeAnswer{JSONRPC: "2.0", ID: id}
		if err != nil {
			pe, ok := err.(*signflow.PaymeError)
			if !ok {
				h.log.Error().Err(err).Msg("payme")
				pe = signflow.PaymeErr(-32400, "")
			}
			a.Error = &signflow.PaymeError{Code: pe.Code, Message: i18n.PaymeMessage(pe.Code), Data: pe.Data}
		} else {
			a.Result = result
		}
		return server.JSON(c, http.StatusOK, a)
	}
	m, err := h.svc.PaymeMerchant(paymeKey(c.Request().Header.Get(echo.HeaderAuthorization)))
	switch {
	case err != nil:
		return answer(nil, err)
	case m == nil:
		return answer(nil, signflow.PaymeErr(-32504, ""))
	case readErr != nil || parseErr != nil || !json.Valid(body):
		return answer(nil, signflow.PaymeErr(-32700, ""))
	case req.Method == "" || len(bytes.TrimSpace(req.Params)) > 0 && bytes.TrimSpace(req.Params)[0] != '{':
		return answer(nil, signflow.PaymeErr(-32600, ""))
	}
	return answer(h.svc.Payme(m, req.Method, req.Params))
}

func (h *handler) clickPrepare(c echo.Context) error  { return h.click(c, false) }
func (h *handler) clickComplete(c echo.Context) error { return h.click(c, true) }

// click answers a Prepare or a Complete, its form fields as Click sends
// them; every outcome is a JSON answer with HTTP 200.
func (h *handler) click(c echo.Context, complete bool) error {
	body, err := server.ReadBody(c)
	if err != nil {
		return err
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		form = url.Values{}
	}
	f := form.Get
	call := &signflow.ClickCall{ClickTransID: f("click_trans_id"), ServiceID: f("service_id"), ClickPaydocID: f("click_paydoc_id"),
		MerchantTransID: f("merchant_trans_id"), MerchantPrepareID: f("merchant_prepare_id"), Amount: f("amount"),
		Action: f("action"), Error: f("error"), ErrorNote: f("error_note"), SignTime: f("sign_time"), SignString: f("sign_string")}
	a, err := h.svc.Click(call, complete)
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, a)
}
