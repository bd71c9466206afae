package signflow_test

import (
	"fmt"
	"strings"
	"testing"

	"contracts/signflow"
)

// Each refusal of a definition names the line it concerns, in YAML and
// in JSON, for decoding errors and for rules alike.
func TestTemplateDefinitionLines(t *testing.T) {
	good := "name: {uz: a, ru: b, en: c}\nsellerName: {uz: a, ru: b, en: c}\nbuyerName: {uz: a, ru: b, en: c}\n"
	cases := []struct {
		name, text string
		yaml       bool
		line       int
		want       string
	}{
		{"field type", good + "fields:\n  - keyName: a\n    type: STRING\n    name: {uz: a, ru: b, en: c}\n  - keyName: b\n    type: COLOUR\n", true, 9, `fields[1].type: unknown field type "COLOUR"`},
		{"missing language", "name: {uz: a, ru: b, en: c}\nsellerName: {uz: a}\n", true, 2, "sellerName: uz, ru and en are required"},
		{"missing key", "type: B2C\n", true, 0, "name: uz, ru and en are required"},
		{"currency", good + "enabledCurrencies:\n  - UZS\n  - EUR\n", true, 6, `unknown currency "EUR"`},
		{"YAML syntax", good + "fields: [unclosed\n", true, 4, "malformed YAML"},
		{"YAML syntax inside", good + "fields:\n  - {keyName: a, type: STRING\n  - {keyName: b}\n", true, 5, "malformed YAML"},
		{"YAML type", good + "witnessCount: many\n", true, 4, "malformed YAML: cannot unmarshal"},
		{"JSON syntax", "{\n  \"name\": {\"uz\": \"a\"},\n  \"type\": ,\n}", false, 3, "malformed JSON"},
		{"JSON rule", "{\n  \"name\": {\"uz\": \"a\", \"ru\": \"b\", \"en\": \"c\"},\n  \"sellerName\": {\"uz\": \"a\", \"ru\": \"b\", \"en\": \"c\"},\n  \"buyerName\": {\"uz\": \"a\"}\n}", false, 4, "buyerName: uz, ru and en are required"},
	}
	for _, tc := range cases {
		def, err := signflow.ParseTemplateDefinition([]byte(tc.text), tc.yaml)
		if err == nil {
			err = def.Validate()
		}
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		if got := signflow.ErrorLine(err); got != tc.line {
			t.Errorf("%s: line %d, want %d (%v)", tc.name, got, tc.line, err)
		}
		msg := signflow.ErrorMessage(err)
		if !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %q does not say %q", tc.name, msg, tc.want)
		}
		if tc.line > 0 && !strings.HasPrefix(msg, fmt.Sprintf("line %d: ", tc.line)) {
			t.Errorf("%s: %q does not start with its line", tc.name, msg)
		}
	}
}
