package embedded

import (
	"encoding/json"
	"reflect"
	"sort"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

func TestTemplates(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	// An app limited to the main template and the draft.
	limited := e.token(e.app(signflow.AppScopes, e.Template.ID, e.Draft.ID))
	e.run(t, []scenario{
		{name: "list: published templates only", method: "GET", path: "/v1/templates", token: tok, status: 200,
			want: []string{`"id":"` + e.Template.ID + `"`, `"id":"` + e.Other.ID + `"`, `"nameUz":"Oldi-sotdi shartnomasi"`,
				`"nameRu":"Договор купли-продажи"`, `"nameEn":"Sales contract"`, `"individualVerificationType":"OTP_SMS"`,
				`"legalVerificationType":"E_IMZO"`, `"productEnabled":true`, `"productRequired":false`,
				`"paymentScheduleEnabled":true`, `"witnessCount":0`},
			not: []string{e.Draft.ID, "body", "{{"}},
		{name: "list: allowed templates only, still published only", method: "GET", path: "/v1/templates", token: limited,
			status: 200, want: []string{e.Template.ID}, not: []string{e.Other.ID, e.Draft.ID}},
		{name: "fields", method: "GET", path: "/v1/templates/" + e.Template.ID + "/fields", token: tok, status: 200,
			want: []string{`"keyName":"deliveryAddress"`, `"keyName":"warrantyMonths"`, `"keyName":"color"`,
				`"productField":true`, `"type":"INTEGER"`, `"position":"BOTTOM"`, `"parentKey":null`, `"deleted":false`,
				`"templateId":"` + e.Template.ID + `"`, `"nameRu":"Адрес"`, `"createdDate":"2026-11-22T09:00:00Z"`,
				`"lastModifiedDate":"2026-11-22T09:00:00Z"`}},
		{name: "fields of a template without fields", method: "GET", path: "/v1/templates/" + e.Other.ID + "/fields", token: tok,
			status: 200, want: []string{"[]"}},
		{name: "fields of a template not allowed", method: "GET", path: "/v1/templates/" + e.Other.ID + "/fields", token: limited,
			status: 403, want: []string{"not allowed"}},
		{name: "fields of an unknown template", method: "GET", path: "/v1/templates/" + signflow.NewID() + "/fields", token: tok,
			status: 404, want: []string{"Template not found."}},
		{name: "fields of a malformed id", method: "GET", path: "/v1/templates/nope/fields", token: tok, status: 404},
		{name: "fields of a draft, even when allowed", method: "GET", path: "/v1/templates/" + e.Draft.ID + "/fields", token: limited,
			status: 404},
	})
}

// The list item and the field carry exactly the spec's fields.
func TestTemplateWireShape(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	e.Clock.Advance(time.Minute)
	newest := fixture.MustTemplate(t, e.Service, fixture.TemplateYAML)
	var list []map[string]any
	if err := json.Unmarshal(e.do("GET", "/v1/templates", tok, nil).body, &list); err != nil || len(list) != 3 {
		t.Fatalf("list: %v %v", list, err)
	}
	if list[2]["id"] != newest.ID {
		t.Errorf("list is not oldest first: %v", list)
	}
	assertKeys(t, list[0], "id", "nameUz", "nameRu", "nameEn", "individualVerificationType", "legalVerificationType",
		"productEnabled", "productRequired", "paymentScheduleEnabled", "witnessCount")
	var fields []map[string]any
	if err := json.Unmarshal(e.do("GET", "/v1/templates/"+e.Template.ID+"/fields", tok, nil).body, &fields); err != nil || len(fields) != 3 {
		t.Fatalf("fields: %v %v", fields, err)
	}
	assertKeys(t, fields[0], "id", "parentKey", "templateId", "nameUz", "nameRu", "nameEn", "keyName", "type", "position",
		"productField", "deleted", "createdDate", "lastModifiedDate")
	if fields[0]["id"] != e.Template.Fields[0].ID || fields[0]["keyName"] != "deliveryAddress" {
		t.Errorf("fields out of definition order: %v", fields[0])
	}

	// A field with a parent names its key.
	tpl := fixture.MustTemplate(t, e.Service, `name: {uz: "P", ru: "P", en: "P"}
sellerName: {uz: "S", ru: "S", en: "S"}
buyerName: {uz: "B", ru: "B", en: "B"}
fields:
  - {keyName: region, type: SELECT, options: [north, south], name: {uz: "r", ru: "r", en: "r"}}
  - {keyName: city, parentKey: region, type: STRING, position: RIGHT, name: {uz: "c", ru: "c", en: "c"}}
`)
	if err := json.Unmarshal(e.do("GET", "/v1/templates/"+tpl.ID+"/fields", tok, nil).body, &fields); err != nil || len(fields) != 2 {
		t.Fatalf("fields: %v %v", fields, err)
	}
	if fields[1]["parentKey"] != "region" || fields[1]["position"] != "RIGHT" {
		t.Errorf("child field: %v", fields[1])
	}
}

func assertKeys(t *testing.T, m map[string]any, want ...string) {
	t.Helper()
	got := make([]string, 0, len(m))
	for k := range m {
		got = append(got, k)
	}
	sort.Strings(got)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("keys %v, want %v", got, want)
	}
}
