package pdf

import (
	"bytes"
	"testing"

	"strings"

	"contracts/internal/fixture"
	"contracts/internal/testtools"
	"contracts/signflow"
)

// A contract stored through the service prints its number, parties, body
// with filled placeholders and hash.
func TestContractFromService(t *testing.T) {
	w := fixture.NewStandard(t)
	c, err := w.Service.CreateContract(w.Access(t, w.AppA), &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 150000, Currency: "UZS", Values: []signflow.ValueInput{{KeyName: "deliveryAddress", Value: "Chilonzor 7"}},
		Products: []signflow.Product{{Name: "Televizor", Quantity: 1, Price: 150000}}}, signflow.Actor{IP: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := w.Service.Contract(w.Access(t, w.AppA), c.ID)
	if err != nil {
		t.Fatal(err)
	}
	audit, _ := w.Service.AuditTrail(c.ID)
	var buf bytes.Buffer
	if err := Contract(&buf, v, audit, "ru", "http://localhost:8080/verify/"+c.ID); err != nil {
		t.Fatal(err)
	}
	text := testtools.PDFText(t, buf.Bytes())
	for _, want := range []string{c.Number, "Alpha Savdo MChJ", "Karimov Aziz", "Alpha Savdo MChJ и Karimov Aziz: Chilonzor 7", "Televizor", "1 500.00 UZS", c.Hash, "Журнал действий", "10.0.0.1"} {
		if !strings.Contains(text, want) {
			t.Errorf("PDF text lacks %q", want)
		}
	}
}
