package signpage

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// The page's JSON API, all under /sign/<token>/ and authorised by the token:
//
//	POST code     send (or resend) the SMS code  200 codeJSON
//	POST confirm  {"code":"12345"}               200 resultJSON
//	POST reject                                  200 resultJSON
//
// Errors are the spec's error body; X-Sign-Reason names the refusal for the
// page (wrong-code with X-Attempts-Left, code-expired, no-code, code-format,
// sends-exhausted, resend-wait and rate-limited with Retry-After,
// unavailable, session-closed, session-expired, session-not-found).

// codeJSON tells the page where the code went and what it may do next.
type codeJSON struct {
	Phone     string `json:"phone,omitempty"`
	ExpiresIn int    `json:"expiresIn"` // seconds
	ResendIn  int    `json:"resendIn"`  // seconds
	SendsLeft int    `json:"sendsLeft"`
}

// resultJSON is a session after the customer acted on it.
type resultJSON struct {
	SessionID      string `json:"sessionId"`
	ContractID     string `json:"contractId"`
	Status         string `json:"status"`
	ContractStatus string `json:"contractStatus"`
	PartyStatus    string `json:"partyStatus"`
}

type confirmRequest struct {
	Code string `json:"code"`
}

func codeBody(c *signflow.CodeSent) *codeJSON {
	secs := func(d time.Duration) int { return int((d + time.Second - 1) / time.Second) }
	return &codeJSON{Phone: c.Phone, ExpiresIn: secs(c.ExpiresIn), ResendIn: secs(c.ResendIn), SendsLeft: c.SendsLeft}
}

func resultBody(r *signflow.SessionResult) resultJSON {
	return resultJSON{SessionID: r.Session.ID, ContractID: r.Contract.ID, Status: r.Session.Status,
		ContractStatus: r.Contract.Status, PartyStatus: r.Contract.PartyStatus(r.Session.SignerIN)}
}

func (h *handler) sendCode(c echo.Context) error {
	if err := h.limiter.Allow(c.RealIP()); err != nil {
		return h.fail(c, err)
	}
	sent, err := h.svc.SendCode(c.Request().Context(), c.Param("token"), actor(c))
	if err != nil {
		return h.fail(c, err)
	}
	return server.JSON(c, http.StatusOK, codeBody(sent))
}

func (h *handler) confirm(c echo.Context) error {
	if err := h.limiter.Allow(c.RealIP()); err != nil {
		return h.fail(c, err)
	}
	var req confirmRequest
	if err := server.Bind(c, &req); err != nil {
		return err
	}
	res, err := h.svc.ConfirmCode(c.Param("token"), req.Code, actor(c))
	if err != nil {
		return h.fail(c, err)
	}
	return server.JSON(c, http.StatusOK, resultBody(res))
}

func (h *handler) reject(c echo.Context) error {
	res, err := h.svc.RejectSession(c.Param("token"), actor(c))
	if err != nil {
		return h.fail(c, err)
	}
	return server.JSON(c, http.StatusOK, resultBody(res))
}

// refusals name the domain's refusals for the page.
var refusals = []struct {
	err    *signflow.Error
	reason string
}{
	{signflow.ErrSessionNotFound, "session-not-found"},
	{signflow.ErrSessionExpired, "session-expired"},
	{signflow.ErrSessionClosed, "session-closed"},
	{signflow.ErrTooManyWrong, "session-closed"},
	{signflow.ErrCodeExpired, "code-expired"},
	{signflow.ErrNoCode, "no-code"},
	{signflow.ErrCodeFormat, "code-format"},
	{signflow.ErrSendsExhausted, "sends-exhausted"},
}

// fail names the refusal in X-Sign-Reason (and the attempts left or the
// wait) and hands the error to the error handler, which writes the body.
func (h *handler) fail(c echo.Context, err error) error {
	hd := c.Response().Header()
	var (
		wrong *signflow.WrongCodeError
		wait  *signflow.ResendWaitError
		limit *server.RetryAfterError
	)
	switch {
	case errors.As(err, &wrong):
		hd.Set("X-Sign-Reason", "wrong-code")
		hd.Set("X-Attempts-Left", strconv.Itoa(wrong.Left))
	case errors.As(err, &wait):
		hd.Set("X-Sign-Reason", "resend-wait")
		return &server.RetryAfterError{Err: signflow.Errorf(signflow.ERATELIMIT, "%s", signflow.ErrorMessage(err)), After: wait.After}
	case errors.As(err, &limit):
		hd.Set("X-Sign-Reason", "rate-limited")
	case signflow.ErrorCode(err) == signflow.EUNAVAILABLE:
		hd.Set("X-Sign-Reason", "unavailable")
	default:
		for _, r := range refusals {
			if errors.Is(err, r.err) {
				hd.Set("X-Sign-Reason", r.reason)
				break
			}
		}
	}
	return err
}
