package admin_test

import (
	"strings"
	"testing"

	"contracts/internal/fixture"
)

// A definition with content after it (a second YAML document, a JSON value
// followed by another) is refused naming the line, and no template is made.
func TestTemplateTrailingContentRefused(t *testing.T) {
	a := newAdminServer(t)
	cases := []struct{ name, ctype, body, want string }{
		{"second YAML document", "application/yaml", fixture.TemplateYAML + "---\nfoo: bar\n", "second YAML document"},
		{"YAML text after the document", "application/yaml", fixture.TemplateYAML + "...\nfoo: [\n", "text after the definition"},
		{"JSON value then another", "application/json", templateJSON + "\n{\"name\": 1}", "line 6: malformed JSON: text after"},
		{"JSON value then a word", "application/json", templateJSON + " x", "text after the definition"},
	}
	for _, tc := range cases {
		status, _, body := a.call(t, "POST", "/admin/v1/templates", tc.ctype, tc.body, "default")
		if status != 400 || !strings.Contains(string(body), tc.want) {
			t.Errorf("%s: %d %s", tc.name, status, body)
		}
	}
	if tpls, err := a.Service.AdminTemplates(); err != nil || len(tpls) != 0 {
		t.Fatalf("%d templates made (%v)", len(tpls), err)
	}
	// Trailing blank lines and a YAML document end are not content.
	a.ok(t, "POST", "/admin/v1/templates", "application/yaml", fixture.TemplateYAML+"...\n\n", 200, nil)
	a.ok(t, "POST", "/admin/v1/templates", "application/json", templateJSON+"\n\n", 200, nil)
}
