package signflow

import (
	"regexp"
)

// MerchantInput sets an owner's accounts with the providers; a provider
// left nil keeps what was set before.
type MerchantInput struct {
	Payme *PaymeInput `json:"payme"`
	Click *ClickInput `json:"click"`
}

// PaymeInput is a Payme cashbox: its id and its key.
type PaymeInput struct {
	MerchantID string `json:"merchantId"`
	Key        string `json:"key"`
}

// ClickInput is a Click service: its ids and its secret key.
type ClickInput struct {
	ServiceID  string `json:"serviceId"`
	MerchantID string `json:"merchantId"`
	SecretKey  string `json:"secretKey"`
}

var (
	merchantIDText = regexp.MustCompile(`^[0-9A-Za-z_-]{1,64}$`)
	clickIDText    = regexp.MustCompile(`^[0-9]{1,18}$`)
)

func (in *MerchantInput) check() error {
	if in.Payme == nil && in.Click == nil {
		return Errorf(EINVALID, "payme or click is required")
	}
	if p := in.Payme; p != nil {
		if !merchantIDText.MatchString(p.MerchantID) {
			return Errorf(EINVALID, "payme.merchantId: must be 1 to 64 letters, digits, - or _")
		}
		if p.Key == "" || len(p.Key) > 200 {
			return Errorf(EINVALID, "payme.key: must be 1 to 200 bytes")
		}
	}
	if c := in.Click; c != nil {
		if !clickIDText.MatchString(c.ServiceID) {
			return Errorf(EINVALID, "click.serviceId: must be a number")
		}
		if !clickIDText.MatchString(c.MerchantID) {
			return Errorf(EINVALID, "click.merchantId: must be a number")
		}
		if c.SecretKey == "" || len(c.SecretKey) > 200 {
			return Errorf(EINVALID, "click.secretKey: must be 1 to 200 bytes")
		}
	}
	return nil
}

// SetMerchant sets an owner's accounts with the providers, as the
// administrator does. Secrets are encrypted; a Payme key or a Click service
// that another owner holds is refused.
func (s *Service) SetMerchant(ownerIN string, in *MerchantInput) (*Merchant, error) {
	if err := in.check(); err != nil {
		return nil, err
	}
	var payme *PaymeAccount
	var click *ClickAccount
	if p := in.Payme; p != nil {
		enc, err := s.opt.Box.Encrypt([]byte(p.Key))
		if err != nil {
			return nil, err
		}
		payme = &PaymeAccount{MerchantID: p.MerchantID, KeyHash: PaymeKeyHash(p.Key), KeyEnc: enc}
	}
	if c := in.Click; c != nil {
		enc, err := s.opt.Box.Encrypt([]byte(c.SecretKey))
		if err != nil {
			return nil, err
		}
		click = &ClickAccount{ServiceID: c.ServiceID, MerchantID: c.MerchantID, SecretEnc: enc}
	}
	var out *Merchant
	err := s.store.Update(func(tx Tx) error {
		if _, err := tx.Owner(ownerIN); err != nil {
			return notFound(err, "Owner not found.")
		}
		m, err := tx.Merchant(ownerIN)
		if ErrorCode(err) == ENOTFOUND {
			m, err = &Merchant{OwnerIN: ownerIN}, nil
		}
		if err != nil {
			return err
		}
		if payme != nil {
			if err := heldByAnother(ownerIN, "payme.key", "key")(tx.MerchantByPaymeKey(payme.KeyHash)); err != nil {
				return err
			}
			m.Payme = payme
		}
		if click != nil {
			if err := heldByAnother(ownerIN, "click.serviceId", "service")(tx.MerchantByClickService(click.ServiceID)); err != nil {
				return err
			}
			m.Click = click
		}
		m.UpdatedAt = UTC(s.opt.Now())
		out = m
		return tx.PutMerchant(m)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Merchant reads an owner's accounts with the providers; ENOTFOUND when
// it has none.
func (s *Service) Merchant(ownerIN string) (*Merchant, error) {
	var m *Merchant
	err := s.store.View(func(tx Tx) (err error) { m, err = tx.Merchant(ownerIN); return err })
	return m, err
}

// heldByAnother refuses an account found for another owner.
func heldByAnother(ownerIN, field, what string) func(*Merchant, error) error {
	return func(other *Merchant, err error) error {
		switch {
		case ErrorCode(err) == ENOTFOUND:
			return nil
		case err != nil:
			return err
		case other.OwnerIN != ownerIN:
			return Errorf(EINVALID, "%s: another owner holds this %s", field, what)
		}
		return nil
	}
}
