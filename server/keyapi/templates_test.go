package keyapi

import (
	"encoding/json"
	"slices"
	"testing"

	"contracts/internal/apitest"
	"contracts/signflow"
)

func TestListTemplates(t *testing.T) {
	e := newEnv(t, 0)
	draftOnly := e.key([]string{signflow.ScopeTemplatesRead}, e.Draft.ID)
	body := []string{"seller.name", "{{", `"body"`}
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "published templates of the key", Method: "GET", Path: "/v1/templates", As: e.KeyA.Secret, Status: 200,
			Want: []string{`"id":"` + e.Template.ID + `"`, `"id":"` + e.Other.ID + `"`, `"nameUz":"Oldi-sotdi shartnomasi"`,
				`"nameRu":"Договор купли-продажи"`, `"nameEn":"Sales contract"`, `"type":"B2C"`, `"status":"PUBLISHED"`,
				`"enabledCurrencies":["UZS","USD"]`, `"enabledCurrencies":null`, `"productEnabled":true`, `"productRequired":false`,
				`"paymentScheduleEnabled":true`, `"witnessEnabled":false`, `"initialPaymentEnabled":true`, `"witnessCount":0`},
			Not: append([]string{e.Draft.ID, "DRAFT", "individualVerificationType"}, body...)},
		{Name: "limited key sees its template only", Method: "GET", Path: "/v1/templates", As: e.LimitedKey.Secret, Status: 200,
			Want: []string{e.Template.ID}, Not: []string{e.Other.ID, e.Draft.ID}},
		{Name: "a key of a draft only sees nothing", Method: "GET", Path: "/v1/templates", As: draftOnly, Status: 200,
			Want: []string{"[]"}},
	})
	// The exact item shape: nothing more than the spec's fields.
	var items []map[string]any
	if err := json.Unmarshal([]byte(e.do("GET", "/v1/templates", e.LimitedKey.Secret, nil).Body), &items); err != nil || len(items) != 1 {
		t.Fatalf("items %v: %v", items, err)
	}
	want := []string{"id", "nameUz", "nameRu", "nameEn", "type", "status", "enabledCurrencies", "productEnabled",
		"productRequired", "paymentScheduleEnabled", "witnessEnabled", "initialPaymentEnabled", "witnessCount"}
	if got := keys(items[0]); !slices.Equal(got, sorted(want)) {
		t.Fatalf("item fields %v, want %v", got, sorted(want))
	}
}

func TestTemplateFields(t *testing.T) {
	e := newEnv(t, 0)
	path := "/v1/templates/" + e.Template.ID + "/fields"
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "fields in order", Method: "GET", Path: path, As: e.KeyA.Secret, Status: 200,
			Want: []string{`"keyName":"deliveryAddress"`, `"keyName":"warrantyMonths"`, `"keyName":"color"`, `"parentKey":null`,
				`"templateId":"` + e.Template.ID + `"`, `"nameUz":"Manzil"`, `"nameRu":"Адрес"`, `"nameEn":"Address"`,
				`"type":"STRING"`, `"type":"INTEGER"`, `"position":"BOTTOM"`, `"productField":true`, `"productField":false`},
			Not: []string{"deleted", "createdDate", "lastModifiedDate"}},
		{Name: "limited key, its template", Method: "GET", Path: path, As: e.LimitedKey.Secret, Status: 200,
			Want: []string{`"keyName":"deliveryAddress"`}},
		{Name: "limited key, another template", Method: "GET", Path: "/v1/templates/" + e.Other.ID + "/fields",
			As: e.LimitedKey.Secret, Status: 403, Want: []string{"not allowed"}},
		{Name: "draft template", Method: "GET", Path: "/v1/templates/" + e.Draft.ID + "/fields", As: e.KeyA.Secret,
			Status: 404, Want: []string{"Template not found."}},
		{Name: "unknown template", Method: "GET", Path: "/v1/templates/" + signflow.NewID() + "/fields", As: e.KeyA.Secret,
			Status: 404},
		{Name: "not a UUID", Method: "GET", Path: "/v1/templates/nope/fields", As: e.KeyA.Secret, Status: 404},
		{Name: "template without fields", Method: "GET", Path: "/v1/templates/" + e.Other.ID + "/fields", As: e.KeyA.Secret,
			Status: 200, Want: []string{"[]"}},
	})
	var fields []map[string]any
	if err := json.Unmarshal([]byte(e.do("GET", path, e.KeyA.Secret, nil).Body), &fields); err != nil || len(fields) != 3 {
		t.Fatalf("fields %v: %v", fields, err)
	}
	for i, f := range fields {
		if f["id"] != e.Template.Fields[i].ID {
			t.Errorf("field %d is %v, want %s", i, f["id"], e.Template.Fields[i].ID)
		}
	}
	want := []string{"id", "parentKey", "templateId", "nameUz", "nameRu", "nameEn", "keyName", "type", "position", "productField", "required"}
	if got := keys(fields[0]); !slices.Equal(got, sorted(want)) {
		t.Fatalf("field keys %v, want %v", got, sorted(want))
	}
}

func keys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return sorted(out)
}

func sorted(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
