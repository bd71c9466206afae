package adminclient_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/admin"
	"contracts/server/admin/adminclient"
	"contracts/signflow"

	"github.com/rs/zerolog"
)

const token = "admin-token-0123456789abcdefghijklmnop"

// newClient is a client of the admin routes on a real HTTP server over a
// fresh bbolt file.
func newClient(t *testing.T) (*adminclient.Client, *fixture.World) {
	t.Helper()
	w := fixture.New(t, signflow.Options{})
	m := server.NewMetrics()
	e := server.NewEcho("admin", zerolog.New(io.Discard), m, true)
	admin.Register(e, admin.Deps{Service: w.Service, DB: w.DB, Token: token, Metrics: m})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &adminclient.Client{URL: srv.URL, Token: token}, w
}

// TestClientEveryRoute calls each route once through the typed client and
// checks the answer against the store.
func TestClientEveryRoute(t *testing.T) {
	c, w := newClient(t)
	ctx := context.Background()

	owner, err := c.CreateOwner(ctx, &signflow.Client{IN: "309876543", Type: signflow.ClientCompany, LegalName: "Beta Trade LLC"})
	if err != nil || owner.ID == "" || owner.LegalName != "Beta Trade LLC" {
		t.Fatalf("owner: %+v %v", owner, err)
	}
	tpl, err := c.CreateTemplate(ctx, []byte(fixture.TemplateYAML), true)
	if err != nil || tpl.ID == "" || len(tpl.Fields) == 0 || tpl.Fields[0].KeyName != "deliveryAddress" {
		t.Fatalf("template: %+v %v", tpl, err)
	}
	up, err := c.UpdateTemplate(ctx, tpl.ID, []byte(strings.Replace(fixture.TemplateYAML, "Sales contract", "Sales agreement", 1)), true)
	if err != nil || up.ID != tpl.ID || up.Version != 2 || up.Fields[0] != tpl.Fields[0] {
		t.Fatalf("update: %+v %v", up, err)
	}
	var refusal *adminclient.Error
	if _, err := c.UpdateTemplate(ctx, tpl.ID, []byte("type: B2X\n"), true); !errors.As(err, &refusal) || refusal.Code != 400 {
		t.Fatalf("a refused update: %v", err)
	}
	for _, step := range []struct {
		call func(context.Context, string) error
		want string
	}{{c.UnpublishTemplate, signflow.TemplateDraft}, {c.PublishTemplate, signflow.TemplatePublished}} {
		if err := step.call(ctx, tpl.ID); err != nil {
			t.Fatal(err)
		}
		var got *signflow.Template
		fixture.Must(t, func() error {
			return w.DB.View(func(tx signflow.Tx) (err error) { got, err = tx.Template(tpl.ID); return err })
		})
		if got.Status != step.want {
			t.Fatalf("template status %s, want %s", got.Status, step.want)
		}
	}
	app, err := c.CreateApp(ctx, &signflow.CredentialInput{Name: "Shop", OwnerIN: "309876543",
		Scopes: []string{signflow.ScopeContractsRead, signflow.ScopeContractsWrite}, TemplateIDs: []string{tpl.ID}, WebhookURL: "https://shop.example/hook",
		WebhookEvents: []string{signflow.EventCreated}})
	if err != nil || app.AppID == "" || !strings.HasPrefix(app.WebhookSecret, "whsec_") {
		t.Fatalf("app: %+v %v", app, err)
	}
	rotated, err := c.RotateAppSecret(ctx, app.AppID)
	if err != nil || rotated.AppSecret == "" || rotated.AppSecret == app.AppSecret {
		t.Fatalf("rotate: %+v %v", rotated, err)
	}
	if _, err := w.Service.IssueToken(app.AppID, rotated.AppSecret); err != nil {
		t.Fatalf("the rotated secret does not work: %v", err)
	}
	key, err := c.CreateKey(ctx, &signflow.CredentialInput{Name: "ERP", OwnerIN: "309876543",
		Scopes: []string{signflow.ScopeContractsRead}, AllTemplates: true})
	if err != nil || !strings.HasPrefix(key.Key, signflow.KeyPrefix) {
		t.Fatalf("key: %+v %v", key, err)
	}
	if k, err := w.Service.AuthenticateKey(key.Key); err != nil || k.ID != key.ID {
		t.Fatalf("the new key does not work: %v", err)
	}

	list, err := c.Deliveries(ctx, "", "")
	if err != nil || list == nil || len(list) != 0 {
		t.Fatalf("deliveries of a store without contracts: %#v %v", list, err)
	}
	var stored *signflow.App
	fixture.Must(t, func() (err error) {
		return w.DB.View(func(tx signflow.Tx) error { stored, err = tx.App(app.AppID); return err })
	})
	contract, err := w.Service.CreateContract(stored.Access(), &signflow.ContractInput{TemplateID: tpl.ID, BuyerIN: "31234567890123", Price: 100}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	list, err = c.Deliveries(ctx, contract.ID, signflow.DeliveryPending)
	if err != nil || len(list) != 1 || list[0].Target != "app:"+app.AppID || list[0].Event != signflow.EventCreated {
		t.Fatalf("deliveries of the contract: %+v %v", list, err)
	}
	again, err := c.Redeliver(ctx, list[0].ID)
	if err != nil || again.Status != signflow.DeliveryPending {
		t.Fatalf("redeliver: %+v %v", again, err)
	}

	if err := c.CancelApp(ctx, app.AppID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Service.IssueToken(app.AppID, rotated.AppSecret); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
		t.Fatalf("token of a cancelled app: %v", err)
	}
	if err := c.RevokeKey(ctx, key.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Service.AuthenticateKey(key.Key); signflow.ErrorCode(err) != signflow.EUNAUTHORIZED {
		t.Fatalf("revoked key: %v", err)
	}

	// The backup is a bbolt file holding all of it.
	var buf bytes.Buffer
	n, err := c.Backup(ctx, &buf)
	if err != nil || n == 0 || int64(buf.Len()) != n {
		t.Fatalf("backup: %d bytes (%d buffered), %v", n, buf.Len(), err)
	}
	fixture.Must(t, func() error {
		return fixture.OpenBackup(t, buf.Bytes()).View(func(tx signflow.Tx) error { _, err := tx.Contract(contract.ID); return err })
	})
}

// TestClientErrors: refusals come back as *Error with the status and the
// error body's message; an address with nothing behind it names the URL.
func TestClientErrors(t *testing.T) {
	c, _ := newClient(t)
	ctx := context.Background()
	cases := []struct {
		name    string
		client  *adminclient.Client
		call    func(*adminclient.Client) error
		code    int
		message string
	}{
		{name: "wrong token", client: &adminclient.Client{URL: c.URL, Token: "wrong"},
			call: func(c *adminclient.Client) error { return c.CancelApp(ctx, "any") }, code: 401, message: "admin token"},
		{name: "unknown app", client: c,
			call: func(c *adminclient.Client) error { _, err := c.RotateAppSecret(ctx, "no-such-app"); return err }, code: 404},
		{name: "owner of no owner", client: c,
			call: func(c *adminclient.Client) error {
				_, err := c.CreateKey(ctx, &signflow.CredentialInput{Name: "ERP", OwnerIN: "300000000", Scopes: []string{signflow.ScopeContractsRead}})
				return err
			}, code: 400, message: "ownerIn"},
		{name: "bad template", client: c,
			call: func(c *adminclient.Client) error { _, err := c.CreateTemplate(ctx, []byte("{"), false); return err }, code: 400},
		{name: "bad status filter", client: c,
			call: func(c *adminclient.Client) error { _, err := c.Deliveries(ctx, "", "LOST"); return err }, code: 400, message: "status"},
		{name: "backup with a wrong token", client: &adminclient.Client{URL: c.URL, Token: "wrong"},
			call: func(c *adminclient.Client) error { _, err := c.Backup(ctx, io.Discard); return err }, code: 401},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call(tc.client)
			var e *adminclient.Error
			if !errors.As(err, &e) || e.Code != tc.code || !strings.Contains(e.Message, tc.message) ||
				!strings.HasPrefix(err.Error(), "admin API: ") {
				t.Fatalf("error %v (%#v), want %d with %q", err, e, tc.code, tc.message)
			}
		})
	}

	srv := httptest.NewServer(nil)
	srv.Close()
	err := (&adminclient.Client{URL: srv.URL, Token: token}).CancelApp(ctx, "any")
	if err == nil || !strings.Contains(err.Error(), "admin API at "+srv.URL) {
		t.Fatalf("no server: %v", err)
	}
}
