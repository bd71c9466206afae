package admin

import (
	"net/http"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// MerchantView is an owner's accounts with the payment providers as the
// admin API answers them: ids only, never a secret.
type MerchantView struct {
	OwnerIN string            `json:"ownerIn"`
	Payme   *PaymeAccountView `json:"payme"`
	Click   *ClickAccountView `json:"click"`
}

// PaymeAccountView is a Payme cashbox without its key.
type PaymeAccountView struct {
	MerchantID string `json:"merchantId"`
}

// ClickAccountView is a Click service without its secret key.
type ClickAccountView struct {
	ServiceID  string `json:"serviceId"`
	MerchantID string `json:"merchantId"`
}

// MerchantViewOf shows the accounts without their secrets.
func MerchantViewOf(m *signflow.Merchant) *MerchantView {
	v := &MerchantView{OwnerIN: m.OwnerIN}
	if m.Payme != nil {
		v.Payme = &PaymeAccountView{MerchantID: m.Payme.MerchantID}
	}
	if m.Click != nil {
		v.Click = &ClickAccountView{ServiceID: m.Click.ServiceID, MerchantID: m.Click.MerchantID}
	}
	return v
}

// setMerchant is POST /admin/v1/owners/{in}/payments: the owner's Payme
// and Click accounts; a provider left out keeps what it had.
func (h *handler) setMerchant(c echo.Context) error {
	var in signflow.MerchantInput
	if err := server.Bind(c, &in); err != nil {
		return err
	}
	m, err := h.Service.SetMerchant(c.Param("in"), &in)
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, MerchantViewOf(m))
}
