package signflow

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"time"
)

// Payme's transaction states.
const (
	PaymeCreated         = 1
	PaymePerformed       = 2
	PaymeCancelled       = -1
	PaymeCancelledAfter  = -2 // cancelled after it was performed
	paymeReasonTimeout   = 4
	PaymeTimeout         = 12 * time.Hour
	paymeMethodNotFound  = -32601
	paymeInsufficientKey = -32504
)

// PaymeError is an error answer of Payme's Merchant API. Message, the
// text the payer reads in Payme's three languages, is filled by the
// interface from assets/i18n (payments.json) by Code.
type PaymeError struct {
	Code    int               `json:"code"`
	Message map[string]string `json:"message"`
	Data    string            `json:"data,omitempty"`
}

func (e *PaymeError) Error() string { return fmt.Sprintf("payme error %d", e.Code) }

// PaymeErr is the error answer with the code; data names the account
// field an account error concerns.
func PaymeErr(code int, data string) *PaymeError {
	return &PaymeError{Code: code, Data: data}
}

// PaymeMerchant finds the owner whose Payme key it is: by the key's hash,
// then the encrypted key compared in constant time. nil when none.
func (s *Service) PaymeMerchant(key string) (*Merchant, error) {
	if key == "" {
		return nil, nil
	}
	var m *Merchant
	err := s.store.View(func(tx Tx) (err error) { m, err = tx.MerchantByPaymeKey(PaymeKeyHash(key)); return err })
	if ErrorCode(err) == ENOTFOUND {
		return nil, nil
	} else if err != nil || m.Payme == nil {
		return nil, err
	}
	plain, err := s.opt.Box.Decrypt(m.Payme.KeyEnc)
	if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare(plain, []byte(key)) != 1 {
		return nil, nil
	}
	return m, nil
}

// paymeParams are the params of every method; each reads its own.
type paymeParams struct {
	ID      string          `json:"id"`
	Time    int64           `json:"time"`
	Amount  json.Number     `json:"amount"`
	Account json.RawMessage `json:"account"`
	Reason  *int            `json:"reason"`
	From    int64           `json:"from"`
	To      int64           `json:"to"`
}

// paymeID is what a Payme transaction id may be.
var paymeID = regexp.MustCompile(`^[0-9A-Za-z_-]{1,64}$`)

// Payme carries out one method of Payme's Merchant API for the merchant m
// and returns its result, or a *PaymeError.
func (s *Service) Payme(m *Merchant, method string, raw json.RawMessage) (any, error) {
	var p paymeParams
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = []byte("{}")
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&p); err != nil {
		return nil, PaymeErr(-32600, "")
	}
	switch method {
	case "CheckPerformTransaction":
		return s.paymeCheck(m, &p)
	case "CreateTransaction", "PerformTransaction", "CancelTransaction", "CheckTransaction":
		if !paymeID.MatchString(p.ID) {
			return nil, PaymeErr(-31003, "")
		}
		return s.paymeTx(m, method, &p)
	case "GetStatement":
		return s.paymeStatement(m, &p)
	}
	return nil, PaymeErr(paymeMethodNotFound, "")
}

// paymeContract reads and checks the contract an account names, and the
// amount against what is open on it less what other created
// transactions hold.
func paymeContract(tx Tx, m *Merchant, p *paymeParams, now time.Time, except string) (*Contract, int64, error) {
	var acc struct {
		Contract string `json:"contract"`
	}
	if json.Unmarshal(p.Account, &acc) != nil || acc.Contract == "" {
		return nil, 0, PaymeErr(-31050, "contract")
	}
	c, err := tx.ContractByNumber(acc.Contract)
	if ErrorCode(err) == ENOTFOUND || err == nil && (c.SellerIN != m.OwnerIN || c.Currency != "UZS") {
		return nil, 0, PaymeErr(-31050, "contract")
	} else if err != nil {
		return nil, 0, err
	}
	if c.Status != StatusActive {
		return nil, 0, PaymeErr(-31051, "contract")
	}
	amount, err := strconv.ParseInt(p.Amount.String(), 10, 64)
	if err != nil || amount <= 0 {
		return nil, 0, PaymeErr(-31001, "amount")
	}
	l, err := ledgerOf(tx, c, now)
	if err != nil {
		return nil, 0, err
	}
	open := l.Balance
	pending, err := tx.ContractProviderTxs(ProviderPayme, c.ID)
	if err != nil {
		return nil, 0, err
	}
	for _, o := range pending {
		if o.ID != except && o.State == PaymeCreated && !paymeExpired(o, now) {
			open -= o.Amount
		}
	}
	if amount > open {
		return nil, 0, PaymeErr(-31001, "amount")
	}
	return c, amount, nil
}

func paymeExpired(p *ProviderTx, now time.Time) bool { return now.Sub(p.CreatedAt) > PaymeTimeout }

func (s *Service) paymeCheck(m *Merchant, p *paymeParams) (any, error) {
	err := s.store.View(func(tx Tx) error {
		_, _, err := paymeContract(tx, m, p, s.opt.Now(), "")
		return err
	})
	if err != nil {
		return nil, err
	}
	return map[string]any{"allow": true}, nil
}

// paymeTx runs a method on one transaction. A refusal that changes the
// transaction (an expired one is cancelled) commits the change first.
func (s *Service) paymeTx(m *Merchant, method string, p *paymeParams) (any, error) {
	var result any
	var refusal *PaymeError
	err := s.store.Update(func(tx Tx) error {
		result, refusal = nil, nil
		now := s.opt.Now().UTC().Truncate(time.Millisecond)
		t, err := tx.ProviderTx(ProviderPayme, p.ID)
		switch {
		case ErrorCode(err) == ENOTFOUND:
			t = nil
		case err != nil:
			return err
		case t.OwnerIN != m.OwnerIN:
			// Another merchant's id: unknown to this one, and never taken over.
			refusal = PaymeErr(-31003, "")
			if method == "CreateTransaction" {
				refusal = PaymeErr(-31008, "")
			}
			return nil
		}
		if t == nil && method != "CreateTransaction" {
			refusal = PaymeErr(-31003, "")
			return nil
		}
		// An expired transaction cannot be created again or performed; a
		// Cancel of it goes on and cancels it with Payme's reason.
		if t != nil && t.State == PaymeCreated && (method == "CreateTransaction" || method == "PerformTransaction") && paymeExpired(t, now) {
			reason := paymeReasonTimeout
			t.State, t.Reason, t.CancelledAt = PaymeCancelled, &reason, &now
			refusal = PaymeErr(-31008, "")
			return tx.PutProviderTx(t)
		}
		switch method {
		case "CreateTransaction":
			result, err = s.paymeCreate(tx, m, p, t, now)
		case "PerformTransaction":
			result, err = s.paymePerform(tx, m, t, now)
		case "CancelTransaction":
			result, err = paymeCancel(tx, p, t, now)
		default:
			result = paymeState(t)
		}
		if pe, ok := err.(*PaymeError); ok {
			refusal = pe
			return pe // nothing of a refused method is kept
		}
		return err
	})
	if refusal != nil {
		return nil, refusal
	}
	return result, err
}

func (s *Service) paymeCreate(tx Tx, m *Merchant, p *paymeParams, t *ProviderTx, now time.Time) (any, error) {
	if t != nil {
		if t.State != PaymeCreated {
			return nil, PaymeErr(-31008, "")
		}
		return map[string]any{"create_time": ms(&t.CreatedAt), "transaction": t.ReceiptID, "state": t.State}, nil
	}
	c, amount, err := paymeContract(tx, m, p, now, p.ID)
	if err != nil {
		return nil, err
	}
	t = &ProviderTx{Provider: ProviderPayme, ID: p.ID, OwnerIN: m.OwnerIN, ContractID: c.ID, Number: c.Number, Amount: amount,
		State: PaymeCreated, Time: p.Time, CreatedAt: now, ReceiptID: newOrderedID()}
	if err := tx.PutProviderTx(t); err != nil {
		return nil, err
	}
	return map[string]any{"create_time": ms(&t.CreatedAt), "transaction": t.ReceiptID, "state": t.State}, nil
}

func (s *Service) paymePerform(tx Tx, m *Merchant, t *ProviderTx, now time.Time) (any, error) {
	switch t.State {
	case PaymePerformed:
	case PaymeCreated:
		c, err := tx.Contract(t.ContractID)
		if err != nil {
			return nil, err
		}
		r := &Receipt{ID: t.ReceiptID, ContractID: c.ID, Amount: t.Amount, PaidAt: UTC(now), Method: PayPayme, Reference: t.ID,
			RecordedBy: ProviderPayme, CreatedAt: UTC(now)}
		if _, err := s.accept(tx, c, r, Actor{IN: m.OwnerIN}, ""); ErrorCode(err) == EINVALID {
			return nil, PaymeErr(-31008, "")
		} else if err != nil {
			return nil, err
		}
		t.State, t.PerformedAt = PaymePerformed, &now
		if err := tx.PutProviderTx(t); err != nil {
			return nil, err
		}
	default:
		return nil, PaymeErr(-31008, "")
	}
	return map[string]any{"transaction": t.ReceiptID, "perform_time": ms(t.PerformedAt), "state": t.State}, nil
}

// paymeCancel cancels a created transaction, or a performed one while its
// contract is ACTIVE: its receipt then stays in the ledger and pays nothing.
func paymeCancel(tx Tx, p *paymeParams, t *ProviderTx, now time.Time) (any, error) {
	switch t.State {
	case PaymeCreated:
		t.State = PaymeCancelled
	case PaymePerformed:
		c, err := tx.Contract(t.ContractID)
		if err != nil {
			return nil, err
		}
		if c.Status != StatusActive {
			return nil, PaymeErr(-31007, "")
		}
		receipts, err := tx.Receipts(c.ID)
		if err != nil {
			return nil, err
		}
		for _, r := range receipts {
			if r.ID == t.ReceiptID {
				r.CancelledAt = &now
				if err := tx.PutReceipt(r); err != nil {
					return nil, err
				}
			}
		}
		t.State = PaymeCancelledAfter
	}
	if t.CancelledAt == nil {
		t.CancelledAt, t.Reason = &now, p.Reason
		if err := tx.PutProviderTx(t); err != nil {
			return nil, err
		}
	}
	return map[string]any{"transaction": t.ReceiptID, "cancel_time": ms(t.CancelledAt), "state": t.State}, nil
}

func paymeState(t *ProviderTx) map[string]any {
	return map[string]any{"create_time": ms(&t.CreatedAt), "perform_time": ms(t.PerformedAt), "cancel_time": ms(t.CancelledAt),
		"transaction": t.ReceiptID, "state": t.State, "reason": t.Reason}
}

func (s *Service) paymeStatement(m *Merchant, p *paymeParams) (any, error) {
	var list []*ProviderTx
	err := s.store.View(func(tx Tx) (err error) {
		list, err = tx.ProviderTxsCreated(ProviderPayme, m.OwnerIN, time.UnixMilli(p.From), time.UnixMilli(p.To))
		return err
	})
	if err != nil {
		return nil, err
	}
	out := []map[string]any{}
	for _, t := range list {
		row := paymeState(t)
		row["id"], row["time"], row["amount"], row["account"] = t.ID, t.Time, t.Amount, map[string]string{"contract": t.Number}
		row["receivers"] = nil
		out = append(out, row)
	}
	return map[string]any{"transactions": out}, nil
}

// ms is a time in Unix milliseconds; 0 for none, as Payme reads it.
func ms(t *time.Time) int64 {
	if t == nil {
		return 0
	}
	return t.UnixMilli()
}
