package appliance

import (
	"fmt"
	"io"

	"contracts/assets"
	"contracts/signflow"
)

// Demo parties: the owner, an individual entrepreneur, and an individual
// customer. Both sign by SMS code, which the console provider prints, so
// that a demo contract reaches ACTIVE with nothing configured (a company
// would need E-IMZO). DemoMarker is the meta key that holds the demo app's
// id once the demo is seeded.
const (
	DemoOwnerIN    = "32109876543210"
	DemoCustomerIN = "31234567890123"
	DemoMarker     = "demo_seeded"
)

// seedDemo creates, once, the demo owner, customer, template, app and key,
// and prints their credentials. Later starts find the marker and do nothing.
func seedDemo(svc *signflow.Service, db store, out io.Writer) error {
	if done, err := db.Meta(DemoMarker); err != nil || done != "" {
		return err
	}
	if _, err := svc.CreateOwner(&signflow.Client{IN: DemoOwnerIN, Type: signflow.ClientIndividual,
		FirstName: "Dilshod", LastName: "Rahimov", Phone: "+998 90 765-43-21", Address: "Toshkent, Amir Temur koʻchasi 1"}); err != nil {
		return err
	}
	def, err := signflow.ParseTemplateDefinition(assets.DemoTemplate, true)
	if err != nil {
		return err
	}
	tpl, err := svc.CreateTemplate(def)
	if err != nil {
		return err
	}
	app, err := svc.CreateApp(&signflow.CredentialInput{Name: "Demo shop", OwnerIN: DemoOwnerIN, Scopes: signflow.AppScopes, AllTemplates: true})
	if err != nil {
		return err
	}
	// The customer is the demo owner's claim, as the demo app registers it.
	var a *signflow.Access
	if err := db.View(func(tx signflow.Tx) error {
		stored, err := tx.App(app.ID)
		if err == nil {
			a = stored.Access()
		}
		return err
	}); err != nil {
		return err
	}
	if _, err := svc.RegisterClient(a, &signflow.Client{IN: DemoCustomerIN, Type: signflow.ClientIndividual,
		FirstName: "Aziz", LastName: "Karimov", Phone: "+998 90 123-45-67", Address: "Toshkent, Chilonzor 7"}); err != nil {
		return err
	}
	key, err := svc.CreateKey(&signflow.CredentialInput{Name: "Demo back office", OwnerIN: DemoOwnerIN, Scopes: signflow.KeyScopes, AllTemplates: true})
	if err != nil {
		return err
	}
	if err := db.SetMeta(DemoMarker, app.ID); err != nil {
		return err
	}
	fmt.Fprintf(out, "demo seller (owner): %s (Dilshod Rahimov); demo customer: %s (Aziz Karimov)\n", DemoOwnerIN, DemoCustomerIN)
	fmt.Fprintf(out, "templateId: %s\n", tpl.ID)
	fmt.Fprintf(out, "appId: %s\nappSecret: %s\napiKey: %s\nwebhookSecret: %s\n", app.ID, app.Secret, key.Secret, app.WebhookSecret)
	fmt.Fprintln(out, "These credentials are shown only now: keep them (to start afresh, stop the server and delete the data directory).")
	return nil
}
