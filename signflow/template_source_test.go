package signflow_test

import (
	"os"
	"reflect"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// The definition written back from a stored template imports as the same
// template: what the console's Edit starts from loses nothing.
func TestDefinitionRoundTrip(t *testing.T) {
	demo, err := os.ReadFile("../assets/demo/template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC) }
	parse := func(src []byte) *signflow.Template {
		t.Helper()
		def, err := signflow.ParseTemplateDefinition(src, true)
		if err == nil {
			err = def.Validate()
		}
		if err != nil {
			t.Fatalf("%v in\n%s", err, src)
		}
		return def.Template("id", now)
	}
	withRequired := fixture.TemplateYAML + "witnessEnabled: true\nwitnessCount: 2\n"
	for name, src := range map[string]string{"demo": string(demo), "fixture": withRequired,
		"required": "name: {uz: a, ru: b, en: c}\nsellerName: {uz: a, ru: b, en: c}\nbuyerName: {uz: a, ru: b, en: c}\nfields:\n  - {keyName: k, type: SELECT, required: true, options: [x, y], name: {uz: a, ru: b, en: c}}\n  - {keyName: c, parentKey: k, type: DATE, name: {uz: a, ru: b, en: c}}\n"} {
		first := parse([]byte(src))
		out, err := first.Definition().YAML()
		if err != nil {
			t.Fatal(err)
		}
		second := parse(out)
		for i := range first.Fields {
			first.Fields[i].ID, second.Fields[i].ID = "", ""
		}
		if !reflect.DeepEqual(first, second) {
			t.Errorf("%s: written back as\n%s\nimports as %+v, want %+v", name, out, second, first)
		}
	}
}
