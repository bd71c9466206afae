package keyapi

import (
	"encoding/json"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// On the key interface: a required field refused by its keyName (values
// and product lines) with nothing stored, the field list's required, and
// each contract's templateVersion across a new version of the template.
func TestRequiredFieldsAndVersions(t *testing.T) {
	e := newEnv(t, 0)
	def := strings.Replace(strings.Replace(fixture.TemplateYAML, "{keyName: deliveryAddress, type: STRING,", "{keyName: deliveryAddress, type: STRING, required: true,", 1),
		"{keyName: color, type: STRING,", "{keyName: color, type: STRING, required: true,", 1)
	parsed, err := signflow.ParseTemplateDefinition([]byte(def), true)
	if err != nil {
		t.Fatal(err)
	}
	old := e.create(e.KeyA.Secret, e.sale())
	if _, err := e.Service.UpdateTemplate(e.Template.ID, parsed); err != nil {
		t.Fatal(err)
	}
	count := func() int {
		list, _, err := e.Service.AdminContracts(signflow.ContractQuery{Size: 100})
		if err != nil {
			t.Fatal(err)
		}
		return len(list)
	}
	before := count()
	product := func(values map[string]any) []any {
		return []any{map[string]any{"name": "TV", "quantity": 1, "price": 100, "values": values}}
	}
	for name, tc := range map[string]struct {
		body map[string]any
		want string
	}{
		"no values":   {e.sale(), "values: deliveryAddress is required by the template"},
		"empty value": {e.sale("values", []any{map[string]any{"keyName": "deliveryAddress", "value": ""}}), "values[0] (deliveryAddress): required"},
		"product without it": {e.sale("values", []any{map[string]any{"keyName": "deliveryAddress", "value": "x"}}, "products", product(nil)),
			"products[0].values: color is required by the template"},
	} {
		r := e.do("POST", "/v1/contracts", e.KeyA.Secret, tc.body)
		if r.Status != 400 || !strings.Contains(r.Body, tc.want) {
			t.Errorf("%s: %d %s, want 400 saying %q", name, r.Status, r.Body, tc.want)
		}
	}
	if count() != before {
		t.Fatal("a refused create stored a contract")
	}
	var fields []map[string]any
	if err := json.Unmarshal([]byte(e.do("GET", "/v1/templates/"+e.Template.ID+"/fields", e.KeyA.Secret, nil).Body), &fields); err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		if want := f["keyName"] != "warrantyMonths"; f["required"] != want {
			t.Errorf("field %v: required %v, want %v", f["keyName"], f["required"], want)
		}
	}
	id := e.create(e.KeyA.Secret, e.sale("values", []any{map[string]any{"keyName": "deliveryAddress", "value": "x"}},
		"products", product(map[string]any{"color": "red"})))
	fresh := e.do("GET", "/v1/contracts/"+id, e.KeyA.Secret, nil).JSON(t)
	if fresh["templateVersion"] != 2.0 {
		t.Fatalf("templateVersion %v, want 2", fresh["templateVersion"])
	}
	if got := e.do("GET", "/v1/contracts/"+old, e.KeyA.Secret, nil).JSON(t)["templateVersion"]; got != 1.0 {
		t.Fatalf("the contract made before the update: templateVersion %v, want 1", got)
	}
}
