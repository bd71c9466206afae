package signflow_test

import (
	"encoding/json"
	"testing"
	"time"

	"contracts/assets"
	"contracts/internal/fixture"
	"contracts/signflow"
)

// FuzzTemplateDefinition fuzzes template import (docs/templates.md), YAML and JSON:
// any input either is refused as EINVALID or gives a template that
// validates, stores as JSON and back unchanged, and renders its body for a
// contract filling every field. Seeds are in testdata/fuzz; to fuzz:
//
//	go test -run '^$' -fuzz '^FuzzTemplateDefinition$' -fuzztime 1000000x ./signflow/
func FuzzTemplateDefinition(f *testing.F) {
	f.Add(assets.DemoTemplate, true)
	f.Add([]byte(fixture.TemplateYAML), true)
	f.Add([]byte(`{"name":{"uz":"a","ru":"b","en":"c"},"sellerName":{"uz":"a","ru":"b","en":"c"},"buyerName":{"uz":"a","ru":"b","en":"c"},`+
		`"fields":[{"keyName":"k","type":"DOUBLE_INPUT_DATE","parentKey":"k","options":["x"],"name":{"uz":"a","ru":"b","en":"c"}}],`+
		`"body":{"uz":"{{k}} {{ price }} {{buyer.name}} {{","ru":"","en":"}}"}}`), false)
	f.Add([]byte("name: &a {uz: x, ru: y, en: z}\nsellerName: *a\nbuyerName: *a\nwitnessEnabled: true\nwitnessCount: 10\n"), true)
	f.Add([]byte("name: {uz: x}\nfields: [{keyName: 'a b', type: STRING}]\n"), true)
	f.Add([]byte("witnessCount: 99999999999999999999\n"), true)
	f.Add([]byte("- a\n- b\n"), true)
	f.Add([]byte(`{"fields":[null],"enabledCurrencies":["XXX"]}`), false)
	f.Add([]byte(`{"witnessCount":1.5}`), false)
	f.Add([]byte{}, false)
	now := func() time.Time { return time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC) }
	f.Fuzz(func(t *testing.T, data []byte, isYAML bool) {
		def, err := signflow.ParseTemplateDefinition(data, isYAML)
		if err != nil {
			if signflow.ErrorCode(err) != signflow.EINVALID {
				t.Fatalf("parse error with code %q: %v", signflow.ErrorCode(err), err)
			}
			return
		}
		if err := def.Validate(); err != nil {
			if signflow.ErrorCode(err) != signflow.EINVALID || signflow.ErrorMessage(err) == "" {
				t.Fatalf("validation error with code %q: %v", signflow.ErrorCode(err), err)
			}
			return
		}
		tpl := def.Template("00000000-0000-4000-8000-000000000001", now)
		if len(tpl.Fields) != len(def.Fields) || tpl.Status == "" || tpl.IndividualVerificationType == "" {
			t.Fatalf("template built wrong: %+v", tpl)
		}
		stored, err := json.Marshal(tpl)
		if err != nil {
			t.Fatalf("the template does not store: %v", err)
		}
		var back signflow.Template
		if err := json.Unmarshal(stored, &back); err != nil {
			t.Fatalf("the stored template does not load: %v", err)
		}
		again, _ := json.Marshal(&back)
		if string(again) != string(stored) {
			t.Fatalf("the template changed through storage:\n%s\n%s", stored, again)
		}
		c := &signflow.Contract{ID: "c", Number: "2026-000001", TemplateID: tpl.ID, Price: 150000, Currency: "UZS",
			BuyerIN: fixture.CustomerIN, SellerIN: fixture.OwnerIN}
		for _, fd := range tpl.Fields {
			c.Values = append(c.Values, signflow.Value{KeyName: fd.KeyName, TemplateFieldID: fd.ID, Value: "v"})
		}
		for _, lang := range signflow.Languages {
			signflow.FillBody(&signflow.ContractView{Contract: c, Template: &back}, lang, signflow.BodyFormat{})
		}
	})
}
