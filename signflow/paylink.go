package signflow

import (
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
)

// PayLinkHosts are the providers' pay pages.
type PayLinkHosts struct {
	Payme string // Payme's checkout, default https://checkout.paycom.uz/
	Click string // Click's pay page, default https://my.click.uz/services/pay
}

// PayLinkInput asks for a pay link: Amount in minor units, 0 for what is
// left of the next open item.
type PayLinkInput struct {
	Provider  string
	Amount    int64
	ReturnURL string
}

// PayLink returns the link to the provider's pay page for a payment
// against a contract the caller may read: only UZS contracts that are
// ACTIVE, whose seller takes payments through that provider.
func (s *Service) PayLink(a *Access, id string, in PayLinkInput) (string, error) {
	if err := mayRead(a, id); err != nil {
		return "", err
	}
	if in.Provider != ProviderPayme && in.Provider != ProviderClick {
		return "", Errorf(EINVALID, "provider: must be PAYME or CLICK")
	}
	if in.ReturnURL != "" {
		if u, err := url.Parse(in.ReturnURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(in.ReturnURL) > 1000 {
			return "", Errorf(EINVALID, "returnUrl: must be an absolute http(s) URL")
		}
	}
	var link string
	err := s.store.View(func(tx Tx) error {
		c, err := reachable(tx, a, id)
		if err != nil {
			return err
		}
		switch {
		case c.Currency != "UZS":
			return Errorf(EINVALID, "Only UZS contracts are paid through Payme or Click.")
		case c.Status != StatusActive:
			return Errorf(EINVALID, "The contract is %s; payments are taken only on an ACTIVE contract.", c.Status)
		}
		m, err := tx.Merchant(c.SellerIN)
		if err != nil && ErrorCode(err) != ENOTFOUND {
			return err
		}
		if m == nil || in.Provider == ProviderPayme && m.Payme == nil || in.Provider == ProviderClick && m.Click == nil {
			return Errorf(EINVALID, "provider: the seller takes no payments through %s", in.Provider)
		}
		l, err := ledgerOf(tx, c, s.opt.Now())
		if err != nil {
			return err
		}
		amount := in.Amount
		if amount == 0 {
			if next := l.NextOpen(); next != nil {
				amount = next.Amount - next.Paid
			}
		}
		if amount <= 0 || amount > l.Balance {
			return Errorf(EINVALID, "amount: must be above 0 and at most the balance, %d minor units", l.Balance)
		}
		link = s.payLinkURL(in, m, c.Number, amount)
		return nil
	})
	return link, err
}

func (s *Service) payLinkURL(in PayLinkInput, m *Merchant, number string, amount int64) string {
	if in.Provider == ProviderPayme {
		params := fmt.Sprintf("m=%s;ac.contract=%s;a=%d", m.Payme.MerchantID, number, amount)
		if in.ReturnURL != "" {
			params += ";c=" + in.ReturnURL
		}
		host := or(s.opt.PayLinks.Payme, "https://checkout.paycom.uz/")
		if !strings.HasSuffix(host, "/") {
			host += "/"
		}
		return host + base64.StdEncoding.EncodeToString([]byte(params))
	}
	q := url.Values{"service_id": {m.Click.ServiceID}, "merchant_id": {m.Click.MerchantID}, "amount": {fmt.Sprintf("%d.%02d", amount/100, amount%100)},
		"transaction_param": {number}}
	if in.ReturnURL != "" {
		q.Set("return_url", in.ReturnURL)
	}
	return or(s.opt.PayLinks.Click, "https://my.click.uz/services/pay") + "?" + q.Encode()
}
