package keyapi

import (
	"encoding/json"
	"slices"
	"testing"

	"contracts/signflow"
)

func TestListTemplates(t *testing.T) {
	e := newEnv(t, 0)
	draftOnly := e.key([]string{signflow.ScopeTemplatesRead}, e.Draft.ID)
	body := []string{"seller.name", "{{", `"body"`}
	e.run(t, []scenario{
		{name: "published templates of the key", method: "GET", path: "/v1/templates", key: e.KeyA.Secret, status: 200,
			want: []string{`"id":"` + e.Template.ID + `"`, `"id":"` + e.Other.ID + `"`, `"nameUz":"Oldi-sotdi shartnomasi"`,
				`"nameRu":"Договор купли-продажи"`, `"nameEn":"Sales contract"`, `"type":"B2C"`, `"status":"PUBLISHED"`,
				`"enabledCurrencies":["UZS","USD"]`, `"enabledCurrencies":null`, `"productEnabled":true`, `"productRequired":false`,
				`"paymentScheduleEnabled":true`, `"witnessEnabled":false`, `"initialPaymentEnabled":true`, `"witnessCount":0`},
			not: append([]string{e.Draft.ID, "DRAFT", "individualVerificationType"}, body...)},
		{name: "limited key sees its template only", method: "GET", path: "/v1/templates", key: e.LimitedKey.Secret, status: 200,
			want: []string{e.Template.ID}, not: []string{e.Other.ID, e.Draft.ID}},
		{name: "a key of a draft only sees nothing", method: "GET", path: "/v1/templates", key: draftOnly, status: 200,
			want: []string{"[]"}},
	})
	// The exact item shape: nothing more than the spec's fields.
	var items []map[string]any
	if err := json.Unmarshal(e.do("GET", "/v1/templates", e.LimitedKey.Secret, nil).body, &items); err != nil || len(items) != 1 {
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
	e.run(t, []scenario{
		{name: "fields in order", method: "GET", path: path, key: e.KeyA.Secret, status: 200,
			want: []string{`"keyName":"deliveryAddress"`, `"keyName":"warrantyMonths"`, `"keyName":"color"`, `"parentKey":null`,
				`"templateId":"` + e.Template.ID + `"`, `"nameUz":"Manzil"`, `"nameRu":"Адрес"`, `"nameEn":"Address"`,
				`"type":"STRING"`, `"type":"INTEGER"`, `"position":"BOTTOM"`, `"productField":true`, `"productField":false`},
			not: []string{"deleted", "createdDate", "lastModifiedDate"}},
		{name: "limited key, its template", method: "GET", path: path, key: e.LimitedKey.Secret, status: 200,
			want: []string{`"keyName":"deliveryAddress"`}},
		{name: "limited key, another template", method: "GET", path: "/v1/templates/" + e.Other.ID + "/fields",
			key: e.LimitedKey.Secret, status: 403, want: []string{"not allowed"}},
		{name: "draft template", method: "GET", path: "/v1/templates/" + e.Draft.ID + "/fields", key: e.KeyA.Secret,
			status: 404, want: []string{"Template not found."}},
		{name: "unknown template", method: "GET", path: "/v1/templates/" + signflow.NewID() + "/fields", key: e.KeyA.Secret,
			status: 404},
		{name: "not a UUID", method: "GET", path: "/v1/templates/nope/fields", key: e.KeyA.Secret, status: 404},
		{name: "template without fields", method: "GET", path: "/v1/templates/" + e.Other.ID + "/fields", key: e.KeyA.Secret,
			status: 200, want: []string{"[]"}},
	})
	var fields []map[string]any
	if err := json.Unmarshal(e.do("GET", path, e.KeyA.Secret, nil).body, &fields); err != nil || len(fields) != 3 {
		t.Fatalf("fields %v: %v", fields, err)
	}
	for i, f := range fields {
		if f["id"] != e.Template.Fields[i].ID {
			t.Errorf("field %d is %v, want %s", i, f["id"], e.Template.Fields[i].ID)
		}
	}
	want := []string{"id", "parentKey", "templateId", "nameUz", "nameRu", "nameEn", "keyName", "type", "position", "productField"}
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
