package signflow_test

import (
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// A sample contract holds the words it is given and its text fields'
// names in the preview's language; nothing of it is stored.
func TestSampleContract(t *testing.T) {
	w := fixture.NewStandard(t)
	def, err := signflow.ParseTemplateDefinition([]byte(fixture.TemplateYAML+"witnessEnabled: true\nwitnessCount: 2\n"), true)
	if err != nil {
		t.Fatal(err)
	}
	words := signflow.SampleWords{Seller: "ООО «Образец Торг»", Address: "Ташкент", FirstName: "Азиз", LastName: "Каримов",
		Product: "Образец товара", Witness: "Свидетель"}
	v, err := w.Service.SampleContract(def, "ru", words)
	if err != nil {
		t.Fatal(err)
	}
	values := map[string]string{}
	for _, val := range v.Values {
		values[val.KeyName] = val.Value
	}
	if v.Seller.LegalName != words.Seller || v.Seller.Address != "Ташкент" || v.Buyer.FirstName != "Азиз" || v.Buyer.LastName != "Каримов" {
		t.Errorf("parties: %+v %+v", v.Seller, v.Buyer)
	}
	if len(v.Products) != 1 || v.Products[0].Name != "Образец товара" || v.Products[0].Values["color"] != "Цвет" {
		t.Errorf("products: %+v", v.Products)
	}
	if strings.Join(v.WitnessIDs, ", ") != "Свидетель 1, Свидетель 2" || values["deliveryAddress"] != "Адрес" || values["warrantyMonths"] != "12" {
		t.Errorf("witnesses %q, values %v", v.WitnessIDs, values)
	}
	if _, err := w.Service.AdminContract(v.ID); signflow.ErrorCode(err) != signflow.ENOTFOUND {
		t.Errorf("the sample was stored: %v", err)
	}
}
