package migrate_test

import (
	"bytes"
	"context"
	"testing"

	"contracts/internal/fixture"
	"contracts/internal/migrate"
	"contracts/signflow"
	"contracts/signflow/secretbox"
	"contracts/storage/postgres/pgtest"
)

// Receipts, the providers' transactions and the owners' merchant accounts
// are copied; the accounts' secrets are encrypted again under the database's
// key, so that Payme's key still names its owner there.
func TestCopyPayments(t *testing.T) {
	w := fixture.NewStandard(t)
	c := w.Contract(t)
	fixture.Must(t, func() error {
		return w.DB.Update(func(tx signflow.Tx) error {
			got, err := tx.Contract(c.ID)
			if err != nil {
				return err
			}
			for _, in := range []string{got.SellerIN, got.BuyerIN} {
				if _, err := got.Sign(in, signflow.Signature{Method: signflow.MethodOTP, At: w.Clock.Now()}, w.Clock.Now()); err != nil {
					return err
				}
			}
			return tx.PutContract(got)
		})
	})
	if _, err := w.Service.SetMerchant(fixture.OwnerIN, &signflow.MerchantInput{Payme: &signflow.PaymeInput{MerchantID: "m", Key: "the-key"},
		Click: &signflow.ClickInput{ServiceID: "5", MerchantID: "6", SecretKey: "the-secret"}}); err != nil {
		t.Fatal(err)
	}
	m, err := w.Service.PaymeMerchant("the-key")
	if err != nil || m == nil {
		t.Fatalf("merchant %v %v", m, err)
	}
	if _, err := w.Service.Payme(m, "CreateTransaction", []byte(`{"id": "p1", "time": 1, "amount": 1000, "account": {"contract": "`+c.Number+`"}}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Service.Payme(m, "PerformTransaction", []byte(`{"id": "p1"}`)); err != nil {
		t.Fatal(err)
	}
	to := pgtest.Open(t)
	toKey, _ := secretbox.New(bytes.Repeat([]byte("t"), 32))
	if _, err := migrate.Copy(context.Background(), w.DB, to, migrate.Options{FromBox: w.Box, ToBox: toKey}); err != nil {
		t.Fatal(err)
	}
	opt := w.Options
	opt.Box = toKey
	there := signflow.NewService(to, opt)
	if m, err := there.PaymeMerchant("the-key"); err != nil || m == nil || m.OwnerIN != fixture.OwnerIN {
		t.Fatalf("the Payme key after the copy: %v %v", m, err)
	}
	r, err := there.Payme(m, "CheckTransaction", []byte(`{"id": "p1"}`))
	if err != nil || r.(map[string]any)["state"] != 2 {
		t.Fatalf("the transaction after the copy: %v %v", r, err)
	}
	l, err := there.Ledger(fixture.TenantAccess(fixture.OwnerIN), c.ID)
	if err != nil || len(l.Receipts) != 1 || l.Paid != 1000 {
		t.Fatalf("the ledger after the copy: %+v %v", l, err)
	}
}
