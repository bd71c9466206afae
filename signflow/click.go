package signflow

import (
	"crypto/md5"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Click's answers.
const (
	ClickOK             = 0
	ClickSignFailed     = -1
	ClickBadAmount      = -2
	ClickNoAction       = -3
	ClickAlreadyPaid    = -4
	ClickNoUser         = -5
	ClickNoTransaction  = -6
	ClickBadRequest     = -8
	ClickCancelled      = -9
	clickPrepared       = 1
	clickCompleted      = 2
	clickCancelledState = -1
)

var clickNotes = map[int]string{
	ClickOK: "Success", ClickSignFailed: "SIGN CHECK FAILED!", ClickBadAmount: "Incorrect parameter amount",
	ClickNoAction: "Action not found", ClickAlreadyPaid: "Already paid", ClickNoUser: "User does not exist",
	ClickNoTransaction: "Transaction does not exist", ClickBadRequest: "Error in request from click",
	ClickCancelled: "Transaction cancelled",
}

// ClickCall is a Prepare or Complete request, its form fields as Click
// sends them.
type ClickCall struct {
	ClickTransID, ServiceID, ClickPaydocID, MerchantTransID, MerchantPrepareID string
	Amount, Action, Error, ErrorNote, SignTime, SignString                     string
}

// ClickAnswer is the JSON answer to a Prepare (with MerchantPrepareID) or
// a Complete (with MerchantConfirmID).
type ClickAnswer struct {
	ClickTransID      int64  `json:"click_trans_id"`
	MerchantTransID   string `json:"merchant_trans_id"`
	MerchantPrepareID *int64 `json:"merchant_prepare_id,omitempty"`
	MerchantConfirmID *int64 `json:"merchant_confirm_id,omitempty"`
	Error             int    `json:"error"`
	ErrorNote         string `json:"error_note"`
}

// Click carries out a Prepare (complete false) or a Complete of Click's
// SHOP API. Every outcome is an answer; err is only a failure of ours.
func (s *Service) Click(call *ClickCall, complete bool) (*ClickAnswer, error) {
	a := &ClickAnswer{MerchantTransID: call.MerchantTransID}
	fail := func(code int) (*ClickAnswer, error) { a.Error, a.ErrorNote = code, clickNotes[code]; return a, nil }
	id, err := strconv.ParseInt(call.ClickTransID, 10, 64)
	if err != nil || id <= 0 || call.ServiceID == "" || call.SignTime == "" || call.SignString == "" {
		return fail(ClickBadRequest)
	}
	a.ClickTransID = id
	call.ClickTransID = strconv.FormatInt(id, 10) // one transaction, however Click pads it
	want := "0"
	if complete {
		want = "1"
	}
	if call.Action != want {
		return fail(ClickNoAction)
	}
	m, err := s.clickMerchant(call, complete)
	if err != nil {
		return nil, err
	} else if m.Click == nil {
		return fail(ClickSignFailed)
	}
	amount, err := MinorFromMajor(json.Number(strings.TrimSpace(call.Amount)), "amount")
	if err != nil || amount <= 0 {
		return fail(ClickBadAmount)
	}
	var code int
	err = s.store.Update(func(tx Tx) error {
		code = ClickOK
		now := s.opt.Now().UTC().Truncate(time.Millisecond)
		t, err := tx.ProviderTx(ProviderClick, call.ClickTransID)
		switch {
		case ErrorCode(err) == ENOTFOUND:
			t = nil
		case err != nil:
			return err
		case t.OwnerIN != m.OwnerIN:
			// Another merchant's id: never taken over.
			code = ClickNoTransaction
			return nil
		}
		if complete {
			code, err = s.clickComplete(tx, m, call, t, amount, now)
		} else {
			code, err = s.clickPrepare(tx, m, call, t, amount, now)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if code != ClickOK {
		return fail(code)
	}
	if complete {
		a.MerchantConfirmID = &id
	} else {
		a.MerchantPrepareID = &id
	}
	a.ErrorNote = clickNotes[ClickOK]
	return a, nil
}

// clickMerchant finds the merchant of the service and checks the
// signature with its secret; a Click account of nil answers that the
// signature failed.
func (s *Service) clickMerchant(call *ClickCall, complete bool) (*Merchant, error) {
	var m *Merchant
	err := s.store.View(func(tx Tx) (err error) { m, err = tx.MerchantByClickService(call.ServiceID); return err })
	if ErrorCode(err) == ENOTFOUND || err == nil && m.Click == nil {
		return &Merchant{}, nil
	} else if err != nil {
		return nil, err
	}
	secret, err := s.opt.Box.Decrypt(m.Click.SecretEnc)
	if err != nil {
		return nil, err
	}
	text := call.ClickTransID + call.ServiceID + string(secret) + call.MerchantTransID
	if complete {
		text += call.MerchantPrepareID
	}
	text += call.Amount + call.Action + call.SignTime
	sum := md5.Sum([]byte(text))
	if subtle.ConstantTimeCompare([]byte(hex.EncodeToString(sum[:])), []byte(strings.ToLower(call.SignString))) != 1 {
		return &Merchant{}, nil
	}
	return m, nil
}

// clickOpen is what a payment may still bring to the contract: its
// balance less what other prepared payments hold.
func clickOpen(tx Tx, c *Contract, except string, now time.Time) (int64, error) {
	l, err := ledgerOf(tx, c, now)
	if err != nil {
		return 0, err
	}
	open := l.Balance
	pending, err := tx.ContractProviderTxs(ProviderClick, c.ID)
	if err != nil {
		return 0, err
	}
	for _, o := range pending {
		if o.ID != except && o.State == clickPrepared {
			open -= o.Amount
		}
	}
	return open, nil
}

func (s *Service) clickPrepare(tx Tx, m *Merchant, call *ClickCall, t *ProviderTx, amount int64, now time.Time) (int, error) {
	if t != nil {
		switch t.State {
		case clickCompleted:
			return ClickAlreadyPaid, nil
		case clickCancelledState:
			return ClickCancelled, nil
		}
		return ClickOK, nil
	}
	c, err := tx.ContractByNumber(call.MerchantTransID)
	if ErrorCode(err) == ENOTFOUND || err == nil && (c.SellerIN != m.OwnerIN || c.Currency != "UZS") {
		return ClickNoUser, nil
	} else if err != nil {
		return 0, err
	}
	if c.Status == StatusCompleted {
		return ClickAlreadyPaid, nil
	} else if c.Status != StatusActive {
		return ClickNoUser, nil
	}
	open, err := clickOpen(tx, c, call.ClickTransID, now)
	if err != nil {
		return 0, err
	}
	if amount > open {
		return ClickBadAmount, nil
	}
	t = &ProviderTx{Provider: ProviderClick, ID: call.ClickTransID, OwnerIN: m.OwnerIN, ContractID: c.ID, Number: c.Number,
		Amount: amount, State: clickPrepared, CreatedAt: now, ReceiptID: newOrderedID()}
	return ClickOK, tx.PutProviderTx(t)
}

// clickComplete records the receipt of a prepared payment, or cancels it
// when Click says the payment failed (error < 0).
func (s *Service) clickComplete(tx Tx, m *Merchant, call *ClickCall, t *ProviderTx, amount int64, now time.Time) (int, error) {
	if t == nil || call.MerchantPrepareID != t.ID {
		return ClickNoTransaction, nil
	}
	switch t.State {
	case clickCompleted:
		return ClickAlreadyPaid, nil
	case clickCancelledState:
		return ClickCancelled, nil
	}
	if amount != t.Amount {
		return ClickBadAmount, nil
	}
	if e, err := strconv.Atoi(call.Error); err == nil && e < 0 {
		t.State, t.CancelledAt = clickCancelledState, &now
		return ClickCancelled, tx.PutProviderTx(t)
	}
	c, err := tx.Contract(t.ContractID)
	if err != nil {
		return 0, err
	}
	r := &Receipt{ID: t.ReceiptID, ContractID: c.ID, Amount: t.Amount, PaidAt: UTC(now), Method: PayClick, Reference: t.ID,
		RecordedBy: ProviderClick, CreatedAt: UTC(now)}
	if _, err := s.accept(tx, c, r, Actor{IN: m.OwnerIN}, ""); ErrorCode(err) == EINVALID {
		t.State, t.CancelledAt = clickCancelledState, &now
		return ClickCancelled, tx.PutProviderTx(t)
	} else if err != nil {
		return 0, err
	}
	t.State, t.PerformedAt = clickCompleted, &now
	return ClickOK, tx.PutProviderTx(t)
}
