package document

import (
	"encoding/json"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"contracts/assets"
	"contracts/internal/fixture"
	"contracts/signflow"
)

const nb = nbsp

func TestMoney(t *testing.T) {
	for _, tt := range []struct {
		minor    int64
		currency string
		want     string
	}{
		{150000, "UZS", "1" + nb + "500.00" + nb + "UZS"},
		{0, "USD", "0.00" + nb + "USD"},
		{5, "USD", "0.05" + nb + "USD"},
		{99999, "RUB", "999.99" + nb + "RUB"},
		{465000000, "", "4" + nb + "650" + nb + "000.00"},
		{123456789012, "UZS", "1" + nb + "234" + nb + "567" + nb + "890.12" + nb + "UZS"},
		{-150001, "UZS", "-1" + nb + "500.01" + nb + "UZS"},
	} {
		if got := Money(tt.minor, tt.currency); got != tt.want {
			t.Errorf("Money(%d, %q) = %q, want %q", tt.minor, tt.currency, got, tt.want)
		}
		// A text has plain spaces, which every phone's alphabet has.
		if got, want := TextMoney(tt.minor, tt.currency), strings.ReplaceAll(tt.want, nb, " "); got != want {
			t.Errorf("TextMoney(%d, %q) = %q, want %q", tt.minor, tt.currency, got, want)
		}
	}
}

func TestDatesInUTC(t *testing.T) {
	at := time.Date(2026, 1, 1, 2, 3, 4, 0, time.FixedZone("UZT", 5*3600))
	if got := Date(at); got != "31.12.2025" {
		t.Errorf("Date = %q", got)
	}
	if got := Time(at); got != "31.12.2025 21:03:04 UTC" {
		t.Errorf("Time = %q", got)
	}
	if got := Quantity(1.25); got != "1.25" {
		t.Errorf("Quantity = %q", got)
	}
}

// The settled words: one per status in each language, whatever surface
// asks (the disagreements of the three copies this package replaced).
func TestSettledWords(t *testing.T) {
	for lang, want := range map[string][]string{
		"uz": {"Kuchga kirgan", "Imzolar kutilmoqda", "Bajarilgan", "Imzolagan", "STIR", "JShShIR", "dona", "Shartnoma tuzildi"},
		"ru": {"Действует", "Ожидает подписей", "Исполнен", "Подписал", "ИНН", "ПИНФЛ", "шт.", "Договор составлен"},
		"en": {"In force", "Awaiting signatures", "Completed", "Signed", "TIN", "PINFL", "pcs", "Contract drawn up"},
	} {
		w := Words(lang)
		got := []string{w["status.ACTIVE"], w["status.CREATED"], w["status.COMPLETED"], w["party.ACCEPTED"], w["tin"], w["pinfl"],
			w["unit.DONA"], w["event.CONTRACT_CREATED"]}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
	// Every code the domain knows has its word.
	families := map[string][]string{"status.": signflow.ContractStatuses, "unit.": signflow.Units,
		"party.":  {signflow.PartyPending, signflow.PartyAccepted, signflow.PartyRejected, signflow.PartyCancelled},
		"method.": {signflow.MethodOTP, signflow.MethodMyID, signflow.MethodAbleID, signflow.MethodEIMZO, signflow.ConfirmCabinet},
		"event.": append([]string{signflow.AuditCompleted, signflow.AuditSessionOpened, signflow.AuditCodeSent, signflow.AuditCodeWrong,
			signflow.AuditSessionClosed, signflow.AuditLinkSent, signflow.AuditReminderSent, signflow.AuditPaymentReminderSent}, signflow.WebhookEvents...)}
	for _, lang := range signflow.Languages {
		for prefix, codes := range families {
			for _, code := range codes {
				if Words(lang)[prefix+code] == "" {
					t.Errorf("%s: no word for %s%s", lang, prefix, code)
				}
			}
		}
	}
}

// The document of the sample contract in Russian: every value formatted
// and every code in words, in the order a reader expects.
func TestNewInRussian(t *testing.T) {
	v, audit := fixture.SampleView(2, 1)
	v.Values = append(v.Values, signflow.Value{TemplateFieldID: "nope", KeyName: "extra", Value: "x", Position: -1})
	d := New(v, audit, "ru", Options{Viewer: v.BuyerIN, VerifyURL: "https://example/verify"})
	if d.NumberText != "Договор № 2026-000042" || d.Date != "01.03.2026" || d.DateText != "Дата составления: 01.03.2026" ||
		d.StatusText != "Действует" || d.StatusClass != "active" {
		t.Errorf("head: %q %q %q %q %q", d.NumberText, d.Date, d.DateText, d.StatusText, d.StatusClass)
	}
	seller, buyer := d.Seller(), d.Buyer()
	if seller.Role != "Продавец" || seller.IDLabel != "ИНН" || !seller.Company || seller.Passport != "" || seller.You ||
		seller.Method != "E-IMZO" || seller.SignedAt != "02.03.2026 09:31:07 UTC" {
		t.Errorf("seller %+v", seller)
	}
	if buyer.Role != "Покупатель" || buyer.IDLabel != "ПИНФЛ" || buyer.Name != fixture.SampleBuyer || buyer.Passport != "AD1234567" ||
		!buyer.You || buyer.StatusText != "Подписал" || buyer.Method != "SMS-код" {
		t.Errorf("buyer %+v", buyer)
	}
	// Terms: by position, then in the template's order; an unknown field by its key.
	var terms []string
	for _, term := range d.Terms {
		terms = append(terms, term.Label+"="+term.Value)
	}
	if got := strings.Join(terms, "; "); got != "extra=x; Гарантия (месяцев)=12; Адрес доставки=Samarqand sh., Registon koʻchasi, 7-uy" {
		t.Errorf("terms %s", got)
	}
	p := d.Products[0]
	if p.Unit != "шт." || p.Qty != "1.5" || p.Price != "1"+nb+"250.00" || p.Amount != "1"+nb+"875.00" ||
		len(p.Extra) != 2 || p.Extra[0] != (Term{"Цвет", "qora"}) || p.Extra[1] != (Term{"size", "XL"}) {
		t.Errorf("product %+v", p)
	}
	if d.PriceHeading != "Цена, UZS" || d.AmountHeading != "Сумма, UZS" || d.ProductsTotal != "5"+nb+"025.00"+nb+"UZS" ||
		d.Price != d.ProductsTotal || d.Initial != "1"+nb+"005.00"+nb+"UZS" || d.Delivery != "20.03.2026" {
		t.Errorf("money %q %q %q %q %q", d.PriceHeading, d.AmountHeading, d.ProductsTotal, d.Price, d.Initial)
	}
	if d.Payments[0] != (Payment{N: 1, Date: "31.03.2026", Amount: "2" + nb + "010.00"}) || d.PaymentsTotal != "4"+nb+"020.00"+nb+"UZS" {
		t.Errorf("payments %+v %q", d.Payments, d.PaymentsTotal)
	}
	// The body's {{price}} is the amount as the tables print it.
	if !strings.Contains(d.Body, "оплатить 5"+nb+"025.00 UZS") || !strings.Contains(d.Body, fixture.SampleSeller+" обязуется") {
		t.Errorf("body %q", d.Body)
	}
	// The audit trail in words: the event, who (by role), how.
	a := d.Audit[1]
	if a.Label != "Отправлен SMS-код" || a.Actor != "Покупатель" || a.ActorIN != v.BuyerIN || a.Method != "SMS-код" || a.At != "02.03.2026 09:30:07 UTC" {
		t.Errorf("audit %+v", a)
	}
	if d.Audit[0].Label != "Договор составлен" || d.Audit[0].Method != "" {
		t.Errorf("audit %+v", d.Audit[0])
	}
}

// The verify page's document: the parties' numbers masked, nothing else
// of the contract's.
func TestNewMasked(t *testing.T) {
	v, audit := fixture.SampleView(2, 1)
	v.Buyer = nil // not registered: its name is its masked number
	d := New(v, audit, "en", Options{Masked: true})
	if d.Seller().IN != "30*****56" || d.Seller().Name != fixture.SampleSeller || d.Buyer().Name != "31**********23" ||
		d.Buyer().IDLabel != "PINFL" || d.Seller().Address != "" || d.Seller().Method != "" {
		t.Errorf("parties %+v", d.Parties)
	}
	if d.Terms != nil || d.Products != nil || d.Payments != nil || d.Body != "" || d.Audit != nil || d.Price != "" {
		t.Errorf("the masked document shows the contract: %+v", d)
	}
	if data, _ := json.Marshal(d); strings.Contains(string(data), v.BuyerIN) || strings.Contains(string(data), v.SellerIN) {
		t.Errorf("a number unmasked: %s", data)
	}
}

// A document is a function of the contract: built twice, it is the same.
func TestNewIsPure(t *testing.T) {
	for range 20 {
		v, audit := fixture.SampleView(3, 2)
		a, _ := json.Marshal(New(v, audit, "uz", Options{}))
		b, _ := json.Marshal(New(v, audit, "uz", Options{}))
		if string(a) != string(b) {
			t.Fatal("two documents of the same contract differ")
		}
	}
}

func TestCardOf(t *testing.T) {
	v, _ := fixture.SampleView(1, 0)
	v.Status, v.BuyerStatus = signflow.StatusCreated, signflow.PartyPending
	c := CardOf(v, v.BuyerIN, "uz")
	if c.CounterRole != "Sotuvchi" || c.Counterpart != fixture.SampleSeller || c.StatusText != "Imzolar kutilmoqda" ||
		!c.AwaitsViewer || c.Amount != Money(v.Price, "UZS") || c.Date != "01.03.2026" {
		t.Errorf("card %+v", c)
	}
	if CardOf(v, v.SellerIN, "uz").AwaitsViewer {
		t.Error("the seller has signed, yet the card awaits it")
	}
}

// Every word the card and this package ask for is in the document's
// strings, in each language.
func TestCardWordsExist(t *testing.T) {
	card, err := fs.ReadFile(assets.Document, "document/card.html")
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, m := range regexp.MustCompile(`\.T\.(\w+)`).FindAllStringSubmatch(string(card), -1) {
		keys[m[1]] = true
	}
	for _, name := range []string{"document.go", "card.go", "format.go"} {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range regexp.MustCompile(`\bt(?:\.F\(|\.Or\(|\[)"(\w+)"`).FindAllStringSubmatch(string(src), -1) {
			keys[m[1]] = true
		}
	}
	if len(keys) < 20 {
		t.Fatalf("only %d keys found: the patterns are stale", len(keys))
	}
	for _, lang := range signflow.Languages {
		for key := range keys {
			if Words(lang)[key] == "" {
				t.Errorf("%s: no word %q", lang, key)
			}
		}
	}
}
