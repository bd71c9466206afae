package storagetest

import (
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// testTemplateVersions updates a template with contracts on both sides of
// the update: each contract reads the version it was made from; fields
// keep their ids where their keyName stays.
func testTemplateVersions(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	a := w.Access(t, w.AppA)
	create := func() *signflow.Contract {
		c, err := w.Service.CreateContract(a, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN, Price: 100,
			Values: []signflow.ValueInput{{KeyName: "deliveryAddress", Value: "Tashkent"}}}, signflow.Actor{})
		must(t, err)
		return c
	}
	before := create()
	def, err := signflow.ParseTemplateDefinition([]byte(strings.NewReplacer(
		`"Manzil"`, `"Yangi manzil"`,
		"{keyName: warrantyMonths", "{keyName: guarantee",
		"{{deliveryAddress}}", "at {{deliveryAddress}}, v2",
	).Replace(fixture.TemplateYAML)), true)
	must(t, err)
	v2, err := w.Service.UpdateTemplate(w.Template.ID, def)
	must(t, err)
	if v2.ID != w.Template.ID || v2.Version != 2 || !v2.CreatedAt.Equal(w.Template.CreatedAt) {
		t.Fatalf("update: id %s version %d created %v", v2.ID, v2.Version, v2.CreatedAt)
	}
	if v2.FieldByKey("deliveryAddress").ID != w.Template.FieldByKey("deliveryAddress").ID ||
		v2.FieldByKey("color").ID != w.Template.FieldByKey("color").ID {
		t.Fatal("a field whose keyName stayed has a new id")
	}
	if v2.FieldByKey("guarantee").ID == w.Template.FieldByKey("warrantyMonths").ID {
		t.Fatal("a new keyName kept an old id")
	}
	after := create()
	if before.TemplateVersion != 1 || after.TemplateVersion != 2 {
		t.Fatalf("template versions of the contracts: %d, %d", before.TemplateVersion, after.TemplateVersion)
	}
	for _, store := range []signflow.Store{w.Store, e.peer(t, w.Store)} {
		svc := signflow.NewService(store, w.Options)
		for c, want := range map[*signflow.Contract]int{before: 1, after: 2} {
			v, err := svc.Contract(a, c.ID)
			must(t, err)
			body := signflow.FillBody(v, "en", signflow.BodyFormat{})
			if v.Template.Version != want || strings.Contains(body, "v2") != (want == 2) ||
				(v.Template.FieldByKey("warrantyMonths") != nil) != (want == 1) || v.Template.Field(c.Values[0].TemplateFieldID) == nil {
				t.Fatalf("contract of version %d reads version %d: %q", want, v.Template.Version, body)
			}
		}
		all, err := svc.AdminTemplateVersions(w.Template.ID)
		must(t, err)
		if len(all) != 2 || all[0].Version != 1 || all[1].Version != 2 || all[0].Fields[0].Name.UZ != "Manzil" {
			t.Fatalf("versions: %d", len(all))
		}
	}
	// A status change stays on the newest version.
	must(t, w.Service.UnpublishTemplate(w.Template.ID))
	must(t, w.Store.View(func(tx signflow.Tx) error {
		cur, err := tx.Template(w.Template.ID)
		if err == nil && (cur.Version != 2 || cur.Status != signflow.TemplateDraft) {
			t.Fatalf("after unpublish: version %d status %s", cur.Version, cur.Status)
		}
		if _, err := tx.TemplateVersion(w.Template.ID, 3); signflow.ErrorCode(err) != signflow.ENOTFOUND {
			t.Fatalf("version 3: %v", err)
		}
		return err
	}))
	if _, err := w.Service.UpdateTemplate("00000000-0000-4000-8000-000000000000", def); signflow.ErrorCode(err) != signflow.ENOTFOUND {
		t.Fatalf("update of an unknown template: %v", err)
	}
}
