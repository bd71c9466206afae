package console_test

import (
	"strings"
	"testing"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/signflow"
)

// Edit in real Chromium: from the list to the template's page, Edit, a
// mistake beside its line, Preview, Save; the page then lists both
// versions. The page and its Edit form are photographed in uz, ru and en
// at 1280 and 390 pixels (CONTRACTS_SCREENSHOTS).
func TestBrowserConsoleTemplateEdit(t *testing.T) {
	e := newEnv(t)
	ctx := browsertest.Start(t)
	base := e.admin.URL
	open(t, ctx, base+"/console?lang=en")
	setValue(t, ctx, "textbox", "Admin token", adminToken)
	browsertest.Click(t, ctx, "button", "Log in")
	browsertest.WaitText(t, ctx, "What the appliance holds, at a glance.")

	browsertest.Click(t, ctx, "link", "Templates")
	browsertest.Click(t, ctx, "link", "Sales contract")
	browsertest.WaitText(t, ctx, "Each contract keeps the text")
	browsertest.Click(t, ctx, "button", "Edit")
	browsertest.WaitText(t, ctx, "Saving makes version 2.")
	if got := value(t, ctx, "Definition"); !strings.Contains(got, "keyName: deliveryAddress") {
		t.Fatalf("Edit starts from:\n%s", got)
	}
	def := strings.NewReplacer(`"Sales contract"`, `"Sales contract v2"`, "{{deliveryAddress}}", "{{deliveryAddress}} (v2)").Replace(fixture.TemplateYAML)
	setValue(t, ctx, "textbox", "Definition", strings.Replace(def, "productEnabled", "productEnabeld", 1))
	browsertest.Click(t, ctx, "button", "Preview")
	browsertest.WaitText(t, ctx, "productEnabeld: unknown key")
	setValue(t, ctx, "textbox", "Definition", def)
	browsertest.Click(t, ctx, "button", "Preview")
	browsertest.WaitText(t, ctx, "With sample values")
	browsertest.WaitText(t, ctx, "(v2)")
	browsertest.Click(t, ctx, "button", "Save")
	browsertest.WaitText(t, ctx, "Version 2 of “Sales contract v2” saved.")
	if versions, err := e.Service.AdminTemplateVersions(e.Template.ID); err != nil || len(versions) != 2 {
		t.Fatalf("%d versions (%v)", len(versions), err)
	}

	page := base + "/console/templates/" + e.Template.ID
	for _, lang := range signflow.Languages {
		open(t, ctx, page+"?lang="+lang)
		browsertest.WaitText(t, ctx, e.Template.ID)
		shoot(t, ctx, "template-versions-"+lang)
		open(t, ctx, page+"?edit=1&lang="+lang)
		shoot(t, ctx, "template-edit-"+lang)
	}
}
