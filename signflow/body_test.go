package signflow_test

import (
	"testing"

	"contracts/signflow"
)

// An optional field left empty, or left out, prints as a dash.
func TestOptionalBlankPrintsDash(t *testing.T) {
	tpl := &signflow.Template{Fields: []signflow.Field{{ID: "f1", KeyName: "addr"}, {ID: "f2", KeyName: "note"}},
		Body: signflow.Text{UZ: "a={{addr}} n={{note}}", RU: "a={{ addr }}", EN: "n={{note}}."}}
	v := &signflow.ContractView{Contract: &signflow.Contract{Values: []signflow.Value{{TemplateFieldID: "f2", KeyName: "note", Value: ""}}}, Template: tpl}
	for lang, want := range map[string]string{"uz": "a=— n=—", "ru": "a=—", "en": "n=—."} {
		if got := signflow.FillBody(v, lang, signflow.BodyFormat{}); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}
