package signflow_test

import (
	"strings"
	"testing"

	"contracts/signflow"
)

func TestTemplateDefinitionValidation(t *testing.T) {
	good := `name: {uz: a, ru: b, en: c}
sellerName: {uz: a, ru: b, en: c}
buyerName: {uz: a, ru: b, en: c}
fields:
  - {keyName: k1, type: STRING, name: {uz: a, ru: b, en: c}}
`
	cases := map[string]struct{ yaml, want string }{
		"valid":              {good, ""},
		"unknown field type": {strings.Replace(good, "STRING", "TEXTAREA", 1), `unknown field type "TEXTAREA"`},
		"missing name":       {strings.Replace(good, "name: {uz: a, ru: b, en: c}\nseller", "seller", 1), "name: uz, ru and en are required"},
		"duplicate keyName":  {good + "  - {keyName: k1, type: DATE, name: {uz: a, ru: b, en: c}}\n", `duplicate keyName "k1"`},
		"bad parent":         {good + "  - {keyName: k2, parentKey: zz, type: DATE, name: {uz: a, ru: b, en: c}}\n", `no field "zz"`},
		"bad currency":       {good + "enabledCurrencies: [EUR]\n", `unknown currency "EUR"`},
		"bad method":         {good + "individualVerificationType: FAX\n", "individualVerificationType"},
		"malformed":          {"name: [unclosed", "malformed YAML"},
	}
	for name, tc := range cases {
		def, err := signflow.ParseTemplateDefinition([]byte(tc.yaml), true)
		if err == nil {
			err = def.Validate()
		}
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case tc.want != "" && (err == nil || !strings.Contains(signflow.ErrorMessage(err), tc.want)):
			t.Errorf("%s: error %v, want it to mention %q", name, err, tc.want)
		}
	}
	if _, err := signflow.ParseTemplateDefinition([]byte(`{"name": 5}`), false); !strings.Contains(signflow.ErrorMessage(err), "name") {
		t.Errorf("JSON type error does not name the field: %v", err)
	}
}
