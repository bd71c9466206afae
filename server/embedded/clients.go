package embedded

import (
	"net/http"

	"contracts/server"
	"contracts/server/wire"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// clientRequest is the spec's "Client request (embedded)".
type clientRequest struct {
	IN                 string `json:"in"`
	Type               string `json:"type"`
	FirstName          string `json:"firstName"`
	LastName           string `json:"lastName"`
	MidName            string `json:"midName"`
	Phone              string `json:"phone"`
	LegalName          string `json:"legalName"`
	Passport           string `json:"passport"`
	PassportIssuedBy   string `json:"passportIssuedBy"`
	PassportIssueDate  string `json:"passportIssueDate"`
	PassportExpiryDate string `json:"passportExpiryDate"`
	Birthday           string `json:"birthday"`
	IsMan              *bool  `json:"isMan"`
	Address            string `json:"address"`
	Email              string `json:"email"`
}

func (r *clientRequest) client() *signflow.Client {
	return &signflow.Client{IN: r.IN, Type: r.Type, FirstName: r.FirstName, LastName: r.LastName, MidName: r.MidName,
		Phone: r.Phone, LegalName: r.LegalName, Passport: r.Passport, PassportIssuedBy: r.PassportIssuedBy,
		PassportIssueDate: r.PassportIssueDate, PassportExpiryDate: r.PassportExpiryDate, Birthday: r.Birthday,
		IsMan: r.IsMan, Address: r.Address, Email: r.Email}
}

// clientResponse is the spec's "Client response" with the embedded-only
// id and phone. Empty names and phone are null.
type clientResponse struct {
	ID        string  `json:"id"`
	IN        string  `json:"in"`
	FirstName *string `json:"firstName"`
	LastName  *string `json:"lastName"`
	MidName   *string `json:"midName"`
	LegalName *string `json:"legalName"`
	Type      string  `json:"type"`
	Phone     *string `json:"phone"`
	Verified  bool    `json:"verified"`
}

func clientOf(c *signflow.Client) clientResponse {
	return clientResponse{ID: c.ID, IN: c.IN, FirstName: wire.OptString(c.FirstName), LastName: wire.OptString(c.LastName),
		MidName: wire.OptString(c.MidName), LegalName: wire.OptString(c.LegalName), Type: c.Type, Phone: wire.OptString(c.Phone),
		Verified: c.Verified}
}

// registerClient is POST /v1/clients: the app's tenant's claim, idempotent
// per tenant (its existing claim only gets its empty fields filled); for an
// owner's number, the owner as the admin registered it.
func (h *handler) registerClient(c echo.Context) error {
	var req clientRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	out, err := h.svc.RegisterClient(access(c), req.client())
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, clientOf(out))
}

// getClient is GET /v1/clients/{in}: the app's tenant's claim (or the
// owner's record). A number that is not 14 or 9 digits is 400 (the spec's
// "number not 14 (or 9) digits"); one the tenant holds no record of, 404.
func (h *handler) getClient(c echo.Context) error {
	in := c.Param("in")
	if err := signflow.CheckIN("in", in); err != nil {
		return err
	}
	out, err := h.svc.FindClient(access(c), in)
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, clientOf(out))
}
