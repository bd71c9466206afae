package embedded

import (
	"encoding/json"
	"reflect"
	"sort"
	"testing"
	"time"

	"contracts/internal/apitest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

func TestTemplates(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	// An app limited to the main template and the draft.
	limited := e.token(e.app(signflow.AppScopes, e.Template.ID, e.Draft.ID))
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "list: published templates only", Method: "GET", Path: "/v1/templates", As: tok, Status: 200,
			Want: []string{`"id":"` + e.Template.ID + `"`, `"id":"` + e.Other.ID + `"`, `"nameUz":"Oldi-sotdi shartnomasi"`,
				`"nameRu":"Договор купли-продажи"`, `"nameEn":"Sales contract"`, `"individualVerificationType":"OTP_SMS"`,
				`"legalVerificationType":"E_IMZO"`, `"productEnabled":true`, `"productRequired":false`,
				`"paymentScheduleEnabled":true`, `"witnessCount":0`},
			Not: []string{e.Draft.ID, "body", "{{"}},
		{Name: "list: allowed templates only, still published only", Method: "GET", Path: "/v1/templates", As: limited,
			Status: 200, Want: []string{e.Template.ID}, Not: []string{e.Other.ID, e.Draft.ID}},
		{Name: "fields", Method: "GET", Path: "/v1/templates/" + e.Template.ID + "/fields", As: tok, Status: 200,
			Want: []string{`"keyName":"deliveryAddress"`, `"keyName":"warrantyMonths"`, `"keyName":"color"`,
				`"productField":true`, `"type":"INTEGER"`, `"position":"BOTTOM"`, `"parentKey":null`, `"deleted":false`,
				`"templateId":"` + e.Template.ID + `"`, `"nameRu":"Адрес"`, `"createdDate":"2026-11-22T09:00:00Z"`,
				`"lastModifiedDate":"2026-11-22T09:00:00Z"`}},
		{Name: "fields of a template without fields", Method: "GET", Path: "/v1/templates/" + e.Other.ID + "/fields", As: tok,
			Status: 200, Want: []string{"[]"}},
		{Name: "fields of a template not allowed", Method: "GET", Path: "/v1/templates/" + e.Other.ID + "/fields", As: limited,
			Status: 403, Want: []string{"not allowed"}},
		{Name: "fields of an unknown template", Method: "GET", Path: "/v1/templates/" + signflow.NewID() + "/fields", As: tok,
			Status: 404, Want: []string{"Template not found."}},
		{Name: "fields of a malformed id", Method: "GET", Path: "/v1/templates/nope/fields", As: tok, Status: 404},
		{Name: "fields of a draft, even when allowed", Method: "GET", Path: "/v1/templates/" + e.Draft.ID + "/fields", As: limited,
			Status: 404},
	})
}

// The list item and the field carry exactly the spec's fields.
func TestTemplateWireShape(t *testing.T) {
	e := newEnv(t, 0)
	tok := e.token(e.AppA)
	e.Clock.Advance(time.Minute)
	newest := fixture.MustTemplate(t, e.Service, fixture.TemplateYAML)
	var list []map[string]any
	if err := json.Unmarshal([]byte(e.do("GET", "/v1/templates", tok, nil).Body), &list); err != nil || len(list) != 3 {
		t.Fatalf("list: %v %v", list, err)
	}
	if list[2]["id"] != newest.ID {
		t.Errorf("list is not oldest first: %v", list)
	}
	assertKeys(t, list[0], "id", "nameUz", "nameRu", "nameEn", "individualVerificationType", "legalVerificationType",
		"productEnabled", "productRequired", "paymentScheduleEnabled", "witnessCount")
	var fields []map[string]any
	if err := json.Unmarshal([]byte(e.do("GET", "/v1/templates/"+e.Template.ID+"/fields", tok, nil).Body), &fields); err != nil || len(fields) != 3 {
		t.Fatalf("fields: %v %v", fields, err)
	}
	assertKeys(t, fields[0], "id", "parentKey", "templateId", "nameUz", "nameRu", "nameEn", "keyName", "type", "position",
		"productField", "required", "deleted", "createdDate", "lastModifiedDate")
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
	if err := json.Unmarshal([]byte(e.do("GET", "/v1/templates/"+tpl.ID+"/fields", tok, nil).Body), &fields); err != nil || len(fields) != 2 {
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
