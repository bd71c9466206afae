package console_test

import (
	"strings"
	"testing"

	"contracts/internal/browsertest"
	"contracts/internal/fixture"
	"contracts/server/i18n"
	"contracts/signflow"
)

// The states only an act reaches — a refused definition, a preview with
// its sample values, a refused form, the confirmation of a cancel,
// secrets shown once, a log of more than one page — in each language,
// found by their names in that language, checked and photographed like
// every page.
func TestBrowserConsoleLanguages(t *testing.T) {
	e := newEnv(t)
	c := e.contract(t)
	for range 55 {
		e.failedDelivery(t, c.ID)
	}
	ctx := browsertest.Start(t)
	base := e.admin.URL
	open(t, ctx, base+"/console?lang=en")
	setValue(t, ctx, "textbox", "Admin token", adminToken)
	browsertest.Click(t, ctx, "button", "Log in")
	browsertest.WaitText(t, ctx, "What the appliance holds, at a glance.")

	def := fixture.TemplateYAML + "witnessEnabled: true\nwitnessCount: 2\n"
	for _, lang := range signflow.Languages {
		w := i18n.Console.For(lang)
		open(t, ctx, base+"/console/templates?new=1&lang="+lang)
		setValue(t, ctx, "textbox", w["definition"], strings.Replace(def, "type: STRING", "type: TEXT", 1))
		browsertest.Click(t, ctx, "button", w["preview"])
		browsertest.WaitText(t, ctx, w.F("problemAtLine", "line", "9"))
		shoot(t, ctx, "template-error-"+lang)
		setValue(t, ctx, "textbox", w["definition"], def)
		browsertest.Click(t, ctx, "button", w["preview"])
		browsertest.WaitText(t, ctx, w["sample.seller"])
		browsertest.WaitText(t, ctx, w["sample.witness"]+" 2")
		shoot(t, ctx, "template-preview-"+lang)

		open(t, ctx, base+"/console/owners?lang="+lang)
		setValue(t, ctx, "combobox", w["ownerType"], signflow.ClientCompany)
		setValue(t, ctx, "textbox", w["ownerNumber"], "30555")
		setValue(t, ctx, "textbox", w["legalName"], "Gamma Group MChJ")
		browsertest.Click(t, ctx, "button", w["createOwner"])
		browsertest.WaitText(t, ctx, w["refuse.companyIN"])
		shoot(t, ctx, "owner-refused-"+lang)

		open(t, ctx, base+"/console/contracts/"+c.ID+"?confirm=cancel&lang="+lang)
		browsertest.WaitText(t, ctx, w["cancelAsk"])
		shoot(t, ctx, "contract-confirm-"+lang)

		open(t, ctx, base+"/console/apps?lang="+lang)
		browsertest.Click(t, ctx, "button", w["rotateSecret"])
		browsertest.WaitText(t, ctx, w["secretRotated"])
		shoot(t, ctx, "app-secrets-"+lang)

		open(t, ctx, base+"/console/deliveries?status=FAILED&lang="+lang)
		browsertest.WaitText(t, ctx, w.F("pageNofM", "page", "1", "pages", "2"))
		shoot(t, ctx, "deliveries-paged-"+lang)
	}
}
