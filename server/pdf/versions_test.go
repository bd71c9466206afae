package pdf

import (
	"bytes"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/internal/testtools"
	"contracts/signflow"
)

// printed is contract id in lang as the service reads it now.
func printed(t *testing.T, w *fixture.Standard, id, lang string) []byte {
	t.Helper()
	v, err := w.Service.Contract(w.Access(t, w.AppA), id)
	if err != nil {
		t.Fatal(err)
	}
	audit, _ := w.Service.AuditTrail(id)
	var buf bytes.Buffer
	if err := Contract(&buf, v, audit, lang, "http://localhost:8080/verify/"+id); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// An optional field left empty prints a dash where its placeholder
// stands, in each language's PDF.
func TestOptionalBlankInPDF(t *testing.T) {
	w := fixture.NewStandard(t)
	c, err := w.Service.CreateContract(w.Access(t, w.AppA), &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 150000, Values: []signflow.ValueInput{{KeyName: "deliveryAddress", Value: ""}}}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	for lang, want := range map[string]string{"uz": "Alpha Savdo MChJ va Karimov Aziz: —", "ru": "Alpha Savdo MChJ и Karimov Aziz: —",
		"en": "Alpha Savdo MChJ and Karimov Aziz: —"} {
		if text := testtools.PDFText(t, printed(t, w, c.ID, lang)); !strings.Contains(text, want) {
			t.Errorf("%s: the PDF lacks %q:\n%s", lang, want, text)
		}
	}
}

// A new version of the template changes nothing in the PDF of a contract
// made before it, byte for byte, while a contract made after it prints the
// new text.
func TestTemplateVersionKeepsOldPDF(t *testing.T) {
	w := fixture.NewStandard(t)
	create := func() *signflow.Contract {
		c, err := w.Service.CreateContract(w.Access(t, w.AppA), &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
			Price: 150000, Values: []signflow.ValueInput{{KeyName: "deliveryAddress", Value: "Chilonzor 7"}, {KeyName: "warrantyMonths", Value: "12"}}}, signflow.Actor{})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	old := create()
	before := map[string][]byte{}
	for _, lang := range signflow.Languages {
		before[lang] = printed(t, w, old.ID, lang)
		if again := printed(t, w, old.ID, lang); !bytes.Equal(again, before[lang]) {
			t.Fatalf("%s: two renderings differ; the comparison below would prove nothing", lang)
		}
	}
	def, err := signflow.ParseTemplateDefinition([]byte(strings.NewReplacer(
		`"Sales contract"`, `"Sales agreement"`, `"Manzil"`, `"Yetkazish manzili"`, `"Warranty"`, `"Guarantee"`,
		`"{{seller.name}} and {{buyer.name}}: {{deliveryAddress}}"`, `"Delivery to {{deliveryAddress}}, warranty {{warrantyMonths}}."`,
	).Replace(fixture.TemplateYAML)), true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Service.UpdateTemplate(w.Template.ID, def); err != nil {
		t.Fatal(err)
	}
	for _, lang := range signflow.Languages {
		if after := printed(t, w, old.ID, lang); !bytes.Equal(after, before[lang]) {
			t.Errorf("%s: the old contract's PDF changed with the template's new version", lang)
		}
	}
	text := testtools.PDFText(t, printed(t, w, create().ID, "en"))
	for _, want := range []string{"Sales agreement", "Delivery to Chilonzor 7, warranty 12.", "Guarantee"} {
		if !strings.Contains(text, want) {
			t.Errorf("the new contract's PDF lacks %q:\n%s", want, text)
		}
	}
	if old := testtools.PDFText(t, before["en"]); !strings.Contains(old, "Alpha Savdo MChJ and Karimov Aziz: Chilonzor 7") {
		t.Errorf("the old PDF:\n%s", old)
	}
}
