package console

import (
	"net/http"
	"slices"
	"strings"
	"time"

	"contracts/server/document"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// credentialsView is the apps page or the keys page: the list, the form
// of a new one, and the secrets of the one just made, shown once.
type credentialsView struct {
	App        bool // apps, else keys
	Rows       []credentialRow
	Form       bool
	Input      signflow.CredentialInput // the form's values
	Expires    string
	Scopes     []check
	Events     []check
	Templates  []check
	Owners     []string
	NewURL     string
	Secrets    []secret
	SecretsFor string // the name of the app or key the secrets belong to
}

type check struct {
	Value, Label string
	Checked      bool
}

// secret is a value shown once, with its label.
type secret struct{ ID, Label, Value string }

type credentialRow struct {
	ID, Name, Owner, Scopes, Templates, Webhook, Created, Expires string
	State, StateText                                              string // active, cancelled, expired
	Live                                                          bool
	RotateURL, CancelURL                                          string
}

func (h *handler) apps(c echo.Context) error {
	return h.credentialsPage(c, &credentialsView{App: true, Form: c.QueryParam("new") != ""}, http.StatusOK)
}

func (h *handler) keys(c echo.Context) error {
	return h.credentialsPage(c, &credentialsView{Form: c.QueryParam("new") != ""}, http.StatusOK)
}

func section(app bool) (string, string) {
	if app {
		return "/console/apps", "nav.apps"
	}
	return "/console/keys", "nav.keys"
}

func (h *handler) credentialsPage(c echo.Context, v *credentialsView, status int, notice ...string) error {
	path, title := section(v.App)
	d := h.start(c, path, title)
	if len(notice) > 0 {
		d.Notice = notice[0]
	}
	if v.App && c.QueryParam("cancelled") != "" {
		d.Notice = d.T["appCancelled"]
	} else if !v.App && c.QueryParam("revoked") != "" {
		d.Notice = d.T["keyRevoked"]
	}
	return h.renderCredentials(c, d, v, status)
}

func (h *handler) renderCredentials(c echo.Context, d *pageData, v *credentialsView, status int) error {
	path, _ := section(v.App)
	v.NewURL = path + "?new=1"
	tpls, err := h.svc.AdminTemplates()
	if err != nil {
		return err
	}
	names := map[string]string{}
	for _, t := range tpls {
		names[t.ID] = t.Name.In(d.Lang)
	}
	owners, err := h.svc.Owners()
	if err != nil {
		return err
	}
	for _, o := range owners {
		v.Owners = append(v.Owners, o.IN+" — "+signflow.PartyName(o, o.IN))
	}
	now := h.svc.Now()
	if v.App {
		apps, err := h.svc.Apps()
		if err != nil {
			return err
		}
		for _, a := range apps {
			row := h.row(d, a.ID, a.Name, a.OwnerIN, a.Scopes, a.AllTemplates, a.TemplateIDs, names, a.WebhookURL, a.CreatedAt, a.ExpiresAt, a.Cancelled, now)
			row.RotateURL, row.CancelURL = "/console/apps/"+a.ID+"/secret", "/console/apps/"+a.ID+"/cancel"
			v.Rows = append(v.Rows, row)
		}
	} else {
		keys, err := h.svc.Keys()
		if err != nil {
			return err
		}
		for _, k := range keys {
			row := h.row(d, k.ID, k.Name, k.OwnerIN, k.Scopes, k.AllTemplates, k.TemplateIDs, names, k.WebhookURL, k.CreatedAt, k.ExpiresAt, k.Revoked, now)
			row.CancelURL = "/console/keys/" + k.ID + "/revoke"
			v.Rows = append(v.Rows, row)
		}
	}
	if v.Form {
		h.formChecks(v, tpls, d)
	}
	d.Page = v
	return h.render(c, status, "credentials", d)
}

func (h *handler) row(d *pageData, id, name, owner string, scopes []string, all bool, tplIDs []string, names map[string]string,
	hook string, created time.Time, expires *time.Time, ended bool, now time.Time) credentialRow {
	row := credentialRow{ID: id, Name: name, Owner: owner, Scopes: strings.Join(scopes, ", "), Webhook: hook,
		Created: document.Date(created), State: "active", Live: true}
	if all {
		row.Templates = d.T["allTemplates"]
	} else {
		var ns []string
		for _, id := range tplIDs {
			ns = append(ns, names[id])
		}
		row.Templates = strings.Join(ns, ", ")
	}
	if expires != nil {
		row.Expires = document.Date(*expires)
		if !now.Before(*expires) {
			row.State, row.Live = "expired", false
		}
	}
	if ended {
		row.State, row.Live = "ended", false
	}
	row.StateText = d.T["credState."+row.State]
	return row
}

// formChecks lists the form's scopes, events and templates, checked as
// the form's values say; a new form has every template.
func (h *handler) formChecks(v *credentialsView, tpls []*signflow.Template, d *pageData) {
	scopes := signflow.KeyScopes
	if v.App {
		scopes = signflow.AppScopes
		for _, ev := range signflow.WebhookEvents {
			v.Events = append(v.Events, check{Value: ev, Label: ev, Checked: slices.Contains(v.Input.WebhookEvents, ev)})
		}
	}
	for _, sc := range scopes {
		v.Scopes = append(v.Scopes, check{Value: sc, Label: sc, Checked: slices.Contains(v.Input.Scopes, sc)})
	}
	for _, t := range tpls {
		v.Templates = append(v.Templates, check{Value: t.ID, Label: t.Name.In(d.Lang) + " · " + d.T.Or("tplStatus."+t.Status, t.Status),
			Checked: slices.Contains(v.Input.TemplateIDs, t.ID)})
	}
}

// input reads the form into the admin API's request of POST
// /admin/v1/apps and /keys; a date it cannot read is refused.
func input(c echo.Context) (signflow.CredentialInput, string, error) {
	form, _ := c.FormParams()
	in := signflow.CredentialInput{Name: strings.TrimSpace(c.FormValue("name")), OwnerIN: ownerNumber(c.FormValue("owner")),
		Scopes: form["scopes"], AllTemplates: c.FormValue("allTemplates") != "", TemplateIDs: form["templateIds"],
		WebhookURL: strings.TrimSpace(c.FormValue("webhookUrl")), WebhookEvents: form["webhookEvents"]}
	if in.AllTemplates {
		in.TemplateIDs = nil
	}
	expires := strings.TrimSpace(c.FormValue("expires"))
	if expires != "" {
		t, err := time.Parse(time.DateOnly, expires)
		if err != nil {
			return in, expires, errExpires
		}
		in.ExpiresAt = &t
	}
	return in, expires, nil
}

// ownerNumber takes the number from "301234567 — Alpha" or "301234567".
func ownerNumber(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " —"); i > 0 {
		return s[:i]
	}
	return s
}

func (h *handler) createApp(c echo.Context) error { return h.createCredential(c, true) }
func (h *handler) createKey(c echo.Context) error { return h.createCredential(c, false) }

func (h *handler) createCredential(c echo.Context, app bool) error {
	in, expires, err := input(c)
	var cred *signflow.NewCredential
	if err == nil {
		if app {
			cred, err = h.svc.CreateApp(&in)
		} else {
			cred, err = h.svc.CreateKey(&in)
		}
	}
	path, title := section(app)
	d := h.start(c, path, title)
	if refused(err) {
		v := &credentialsView{App: app, Form: true, Input: in, Expires: expires}
		return h.renderCredentials(c, d.withError(refusalText(d.T, err)), v, http.StatusBadRequest)
	} else if err != nil {
		return err
	}
	v := &credentialsView{App: app, SecretsFor: in.Name}
	if app {
		d.Notice = d.T["appCreated"]
		v.Secrets = []secret{{"app-id", d.T["secretAppID"], cred.ID}, {"app-secret", d.T["secretApp"], cred.Secret}}
	} else {
		d.Notice = d.T["keyCreated"]
		v.Secrets = []secret{{"key-id", d.T["secretKeyID"], cred.ID}, {"api-key", d.T["secretKey"], cred.Secret}}
	}
	v.Secrets = append(v.Secrets, secret{"webhook-secret", d.T["secretWebhook"], cred.WebhookSecret})
	return h.renderCredentials(c, d, v, http.StatusOK)
}

// rotateSecret is POST /console/apps/{id}/secret: a new secret, shown once.
func (h *handler) rotateSecret(c echo.Context) error {
	s, err := h.svc.RotateAppSecret(c.Param("id"))
	d := h.start(c, "/console/apps", "nav.apps")
	if refused(err) {
		return h.renderCredentials(c, d.withError(d.T["appMissing"]+"."), &credentialsView{App: true}, http.StatusNotFound)
	} else if err != nil {
		return err
	}
	d.Notice = d.T["secretRotated"]
	v := &credentialsView{App: true, SecretsFor: c.Param("id"),
		Secrets: []secret{{"app-id", d.T["secretAppID"], c.Param("id")}, {"app-secret", d.T["secretApp"], s}}}
	return h.renderCredentials(c, d, v, http.StatusOK)
}

func (h *handler) cancelApp(c echo.Context) error {
	return h.endCredential(c, true, h.svc.CancelApp, "/console/apps?cancelled=1")
}

func (h *handler) revokeKey(c echo.Context) error {
	return h.endCredential(c, false, h.svc.RevokeKey, "/console/keys?revoked=1")
}

func (h *handler) endCredential(c echo.Context, app bool, end func(string) error, next string) error {
	err := end(c.Param("id"))
	if refused(err) {
		path, title := section(app)
		d := h.start(c, path, title)
		missing := d.T["keyMissing"]
		if app {
			missing = d.T["appMissing"]
		}
		return h.renderCredentials(c, d.withError(missing+"."), &credentialsView{App: app}, http.StatusNotFound)
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, next)
}
