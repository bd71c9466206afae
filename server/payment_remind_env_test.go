package server_test

import (
	"context"
	"encoding/base64"
	"slices"
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/server/document"
	"contracts/server/i18n"
	"contracts/signflow"
	"contracts/signflow/eimzo"
	"contracts/signflow/eimzo/eimzotest"
	"contracts/signflow/sms"
	"contracts/storage"
	"contracts/storage/postgres/pgtest"

	"github.com/rs/zerolog"
)

// payWorld is a standard world on store whose service texts payment
// reminders remindBefore ahead through the background queue to an SMS
// gateway over HTTP; the codes to sign go to the world's own recorder.
func payWorld(t *testing.T, store signflow.Store, remindBefore time.Duration) (*fixture.Standard, *fixture.SMS, *sms.Queue) {
	t.Helper()
	w := fixture.NewStandardOn(t, store)
	rec := &fixture.SMS{}
	gw := fixture.NewGateway(t, rec)
	queue := sms.NewQueue(sms.NewHTTP(gw.URL, nil, 5*time.Second), zerolog.Nop(), sms.QueueOptions{Timeout: 5 * time.Second})
	queue.Start()
	t.Cleanup(func() { queue.Shutdown(context.Background()) })
	ez := eimzotest.New(t)
	verifier, err := eimzo.New(eimzo.Config{VerifyURL: ez.URL, Host: "localhost", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	opt := w.Options
	opt.EIMZO = verifier
	opt.Queue, opt.PaymentRemindBefore, opt.CabinetURL, opt.Money = queue, remindBefore, "http://key.test/cabinet", document.TextMoney
	w.Service = signflow.NewService(w.Store, opt)
	return w, rec, queue
}

func openStores(t *testing.T) map[string]func(*testing.T) signflow.Store {
	return map[string]func(*testing.T) signflow.Store{
		"bbolt": func(t *testing.T) signflow.Store {
			db, err := storage.Open(t.TempDir()+"/contracts.db", storage.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		},
		"postgres": func(t *testing.T) signflow.Store { return pgtest.Open(t) },
	}
}

// Dates of the schedule of instalmentContract.
var (
	firstDue  = time.Date(2026, 12, 10, 0, 0, 0, 0, time.UTC)
	secondDue = time.Date(2027, 1, 10, 0, 0, 0, 0, time.UTC)
)

// instalmentContract creates a sale of 3 000.00 UZS: 500.00 at signing,
// 1 000.00 on firstDue and 1 500.00 on secondDue.
func instalmentContract(t *testing.T, w *fixture.Standard) *signflow.Contract {
	t.Helper()
	c, err := w.Service.CreateContract(w.Access(t, w.AppA), &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 300000, InitialPayment: 50000, Currency: "UZS",
		Payments: []signflow.Payment{{Amount: 100000, PaymentDate: firstDue}, {Amount: 150000, PaymentDate: secondDue}}}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// signSeller signs for the seller with E-IMZO, as the signing page does.
func signSeller(t *testing.T, w *fixture.Standard, c *signflow.Contract) {
	t.Helper()
	_, token, err := w.Service.OpenSession(w.Access(t, w.AppA), c.ID, signflow.SessionRequest{SignerIN: fixture.OwnerIN}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	p7 := eimzotest.Sign(c.Hash, eimzotest.Key{TIN: fixture.OwnerIN, PINFL: "30101010101010", CN: "Alpha Savdo MChJ"})
	if _, err := w.Service.SignWithEIMZO(context.Background(), token, p7, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
}

// signByCode signs for the buyer through a session in lang and an SMS
// code, as the signing page does.
func signByCode(t *testing.T, w *fixture.Standard, id, lang string) {
	t.Helper()
	_, token, err := w.Service.OpenSession(w.Access(t, w.AppA), id, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: lang}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Service.SendCode(context.Background(), token, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Service.ConfirmCode(token, w.SMS.Newest(t, customerPhone).Code(t), signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
}

// activeContract is an instalmentContract signed by the seller, then by
// the buyer in lang.
func activeContract(t *testing.T, w *fixture.Standard, lang string) *signflow.Contract {
	t.Helper()
	c := instalmentContract(t, w)
	signSeller(t, w, c)
	signByCode(t, w, c.ID, lang)
	fixture.Must(t, func() error {
		return w.Store.View(func(tx signflow.Tx) (err error) { c, err = tx.Contract(c.ID); return err })
	})
	if c.Status != signflow.StatusActive {
		t.Fatalf("the contract is %s after both signatures", c.Status)
	}
	return c
}

func paymentText(c *signflow.Contract, lang string, amount int64, due time.Time, url string) string {
	return i18n.SMSTexts(nil).Render(signflow.SMSPaymentReminder, lang, map[string]string{"amount": document.TextMoney(amount, "UZS"),
		"date": due.Format("02.01.2006"), "number": c.Number, "url": url})
}

// sameTexts fails unless the gateway was sent exactly want, in any order.
func sameTexts(t *testing.T, got []fixture.Message, want []string) {
	t.Helper()
	var texts []string
	for _, m := range got {
		if m.Phone != customerPhone {
			t.Fatalf("a payment reminder went to %s", m.Phone)
		}
		texts = append(texts, m.Text)
	}
	slices.Sort(texts)
	slices.Sort(want)
	if !slices.Equal(texts, want) {
		t.Fatalf("texted\n%s\nwant\n%s", strings.Join(texts, "\n"), strings.Join(want, "\n"))
	}
}

// TestPaymentReminders: with payments.remindBefore, the buyer is texted,
// in the language it signed in, that long before each open item falls
// due, once per item, with the cabinet's address or, once the seller
// takes Payme, a pay link for what is left of the item; an item paid in
// advance, a contract COMPLETED or CANCELLED, are not reminded of; each
// reminder is in the audit trail. On both engines.
func TestPaymentReminders(t *testing.T) {
	for name, open := range openStores(t) {
		t.Run(name, func(t *testing.T) {
			w, texts, queue := payWorld(t, open(t), 72*time.Hour)
			uz, ru := activeContract(t, w, "uz"), activeContract(t, w, "ru")
			en, completed := activeContract(t, w, "en"), activeContract(t, w, "en")
			cancelled := instalmentContract(t, w)
			access := w.Access(t, w.AppA)
			if _, err := w.Service.Cancel(access, cancelled.ID, signflow.Actor{}); err != nil {
				t.Fatal(err)
			}
			// The buyer of ru pays the first instalment in advance, and 200.00 of the second.
			if _, err := w.Service.RecordPayment(access, ru.ID, signflow.PaymentInput{Amount: 170000, PaidAt: w.Clock.Now(), Method: signflow.PayCash,
				Reference: "r1"}, signflow.Actor{}); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Service.Complete(access, completed.ID, signflow.Actor{}); err != nil {
				t.Fatal(err)
			}

			// The first reminders are due at 00:00 on 7 December.
			runTimers(t, w.World, firstDue.Add(-72*time.Hour).Sub(w.Clock.Now())-time.Minute)
			if n := len(audits(t, w.World, uz.ID, signflow.AuditPaymentReminderSent)); n != 0 {
				t.Fatalf("%d reminders before their time", n)
			}
			runTimers(t, w.World, time.Minute)
			sameTexts(t, texts.WaitFor(t, 2), []string{
				paymentText(uz, "uz", 100000, firstDue, "http://key.test/cabinet?lang=uz"),
				paymentText(en, "en", 100000, firstDue, "http://key.test/cabinet?lang=en")})
			runTimers(t, w.World, 48*time.Hour) // nothing is reminded twice

			_, err := w.Service.SetMerchant(fixture.OwnerIN, &signflow.MerchantInput{Payme: &signflow.PaymeInput{MerchantID: "m1", Key: "payme-key"}})
			if err != nil {
				t.Fatal(err)
			}
			payLink := func(c *signflow.Contract, amount string) string {
				return "https://checkout.paycom.uz/" + base64.StdEncoding.EncodeToString([]byte("m=m1;ac.contract="+c.Number+";a="+amount))
			}
			runTimers(t, w.World, secondDue.Add(-72*time.Hour).Sub(w.Clock.Now()))
			sameTexts(t, texts.WaitFor(t, 5), []string{
				paymentText(uz, "uz", 100000, firstDue, "http://key.test/cabinet?lang=uz"),
				paymentText(en, "en", 100000, firstDue, "http://key.test/cabinet?lang=en"),
				paymentText(uz, "uz", 150000, secondDue, payLink(uz, "150000")),
				paymentText(ru, "ru", 130000, secondDue, payLink(ru, "130000")),
				paymentText(en, "en", 150000, secondDue, payLink(en, "150000"))})
			runTimers(t, w.World, 30*24*time.Hour)

			for c, want := range map[*signflow.Contract]int{uz: 2, ru: 1, en: 2, completed: 0, cancelled: 0} {
				if got := audits(t, w.World, c.ID, signflow.AuditPaymentReminderSent); len(got) != want {
					t.Fatalf("%s: %d payment reminders in the audit trail, want %d", c.Number, len(got), want)
				}
			}
			queue.Shutdown(context.Background())
			if texts.Count() != 5 {
				t.Fatalf("%d texts, want 5", texts.Count())
			}
		})
	}
}

// TestPaymentRemindersOff: with payments.remindBefore 0 nothing is texted
// and no timer is left behind.
func TestPaymentRemindersOff(t *testing.T) {
	w, texts, queue := payWorld(t, openStores(t)["bbolt"](t), 0)
	c := activeContract(t, w, "uz")
	runTimers(t, w.World, 60*24*time.Hour)
	fixture.Must(t, func() error {
		return w.Store.View(func(tx signflow.Tx) error {
			due, err := tx.DueTimers(w.Clock.Now().Add(365*24*time.Hour), 10)
			if len(due) != 0 {
				t.Errorf("%d timers left", len(due))
			}
			return err
		})
	})
	queue.Shutdown(context.Background())
	if n := texts.Count(); n != 0 || len(audits(t, w.World, c.ID, signflow.AuditPaymentReminderSent)) != 0 {
		t.Fatalf("%d texts with reminders off", n)
	}
}
