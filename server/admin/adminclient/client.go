// Package adminclient calls the admin API of a running appliance, with
// the request and answer types of package admin: the client behind
// "contracts admin" and "contracts backup".
package adminclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"contracts/server/admin"
	"contracts/signflow"
)

// Client calls one appliance's admin API.
type Client struct {
	URL   string       // base URL, e.g. http://127.0.0.1:8082
	Token string       // the admin bearer token
	HTTP  *http.Client // nil: a client with a one-minute time-out
}

// Error is an answer other than 2xx, with the message of its error body.
type Error struct {
	Status  string // e.g. "401 Unauthorized"
	Code    int
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("admin API: %s: %s", e.Status, e.Message) }

var defaultHTTP = &http.Client{Timeout: time.Minute}

// CreateOwner creates an owner, or updates the fields given of an existing
// one; the answer says which, and what changed.
func (c *Client) CreateOwner(ctx context.Context, in *signflow.Client) (*admin.OwnerSaved, error) {
	out := &admin.OwnerSaved{Client: new(signflow.Client)}
	return out, c.call(ctx, "POST", "/admin/v1/owners", in, out)
}

// SetPayments sets an owner's Payme and Click merchant accounts; a
// provider left nil keeps its account. The answer holds no secret.
func (c *Client) SetPayments(ctx context.Context, ownerIN string, in *signflow.MerchantInput) (*admin.MerchantView, error) {
	out := new(admin.MerchantView)
	return out, c.call(ctx, "POST", "/admin/v1/owners/"+url.PathEscape(ownerIN)+"/payments", in, out)
}

// CreateTemplate creates a template from its definition, YAML or JSON.
func (c *Client) CreateTemplate(ctx context.Context, definition []byte, isYAML bool) (*admin.TemplateCreated, error) {
	out := new(admin.TemplateCreated)
	return out, c.sendDefinition(ctx, "POST", "/admin/v1/templates", definition, isYAML, out)
}

func (c *Client) sendDefinition(ctx context.Context, method, path string, definition []byte, isYAML bool, out any) error {
	ctype := "application/json"
	if isYAML {
		ctype = "application/yaml"
	}
	res, err := c.do(ctx, method, path, ctype, bytes.NewReader(definition))
	if err != nil {
		return err
	}
	defer res.Body.Close()
	return decode(res, out)
}

// UpdateTemplate stores a new definition, YAML or JSON, as the next
// version of template id.
func (c *Client) UpdateTemplate(ctx context.Context, id string, definition []byte, isYAML bool) (*admin.TemplateUpdated, error) {
	out := new(admin.TemplateUpdated)
	return out, c.sendDefinition(ctx, "PUT", "/admin/v1/templates/"+url.PathEscape(id), definition, isYAML, out)
}

// PublishTemplate lets new contracts use a template.
func (c *Client) PublishTemplate(ctx context.Context, id string) error {
	return c.call(ctx, "POST", "/admin/v1/templates/"+url.PathEscape(id)+"/publish", nil, nil)
}

// UnpublishTemplate makes a template a draft that no new contract can use.
func (c *Client) UnpublishTemplate(ctx context.Context, id string) error {
	return c.call(ctx, "POST", "/admin/v1/templates/"+url.PathEscape(id)+"/unpublish", nil, nil)
}

// CreateApp creates an embedded-interface app.
func (c *Client) CreateApp(ctx context.Context, in *signflow.CredentialInput) (*admin.AppCreated, error) {
	out := new(admin.AppCreated)
	return out, c.call(ctx, "POST", "/admin/v1/apps", in, out)
}

// RotateAppSecret gives an app a new secret; the old one and its tokens stop working.
func (c *Client) RotateAppSecret(ctx context.Context, appID string) (*admin.AppSecret, error) {
	out := new(admin.AppSecret)
	return out, c.call(ctx, "POST", "/admin/v1/apps/"+url.PathEscape(appID)+"/secret", nil, out)
}

// CancelApp stops an app for good.
func (c *Client) CancelApp(ctx context.Context, appID string) error {
	return c.call(ctx, "POST", "/admin/v1/apps/"+url.PathEscape(appID)+"/cancel", nil, nil)
}

// CreateKey creates a key-interface API key.
func (c *Client) CreateKey(ctx context.Context, in *signflow.CredentialInput) (*admin.KeyCreated, error) {
	out := new(admin.KeyCreated)
	return out, c.call(ctx, "POST", "/admin/v1/keys", in, out)
}

// RevokeKey stops a key for good.
func (c *Client) RevokeKey(ctx context.Context, id string) error {
	return c.call(ctx, "POST", "/admin/v1/keys/"+url.PathEscape(id)+"/revoke", nil, nil)
}

// Deliveries lists webhook deliveries, of one contract and in one status
// when those are not empty.
func (c *Client) Deliveries(ctx context.Context, contractID, status string) ([]admin.Delivery, error) {
	q := url.Values{"contractId": {contractID}, "status": {status}}
	out := []admin.Delivery{}
	return out, c.call(ctx, "GET", "/admin/v1/deliveries?"+q.Encode(), nil, &out)
}

// Redeliver queues a delivery again, under its id.
func (c *Client) Redeliver(ctx context.Context, id string) (*admin.Redelivery, error) {
	out := new(admin.Redelivery)
	return out, c.call(ctx, "POST", "/admin/v1/deliveries/"+url.PathEscape(id)+"/redeliver", nil, out)
}

// Backup writes a consistent snapshot of the database to w and returns
// its size. Give the client an HTTP time-out fit for the file's size.
func (c *Client) Backup(ctx context.Context, w io.Writer) (int64, error) {
	res, err := c.do(ctx, "GET", "/admin/v1/backup", "", nil)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if err := check(res); err != nil {
		return 0, err
	}
	return io.Copy(w, res.Body)
}

// call sends in as JSON (none when nil) and decodes the answer into out
// (none when nil).
func (c *Client) call(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	ctype := ""
	if in != nil {
		data, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body, ctype = bytes.NewReader(data), "application/json"
	}
	res, err := c.do(ctx, method, path, ctype, body)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if out == nil {
		return check(res)
	}
	return decode(res, out)
}

func (c *Client) do(ctx context.Context, method, path, ctype string, body io.Reader) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.URL+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	h := c.HTTP
	if h == nil {
		h = defaultHTTP
	}
	res, err := h.Do(req)
	if err != nil {
		return nil, fmt.Errorf("admin API at %s: %w", c.URL, err)
	}
	return res, nil
}

// check turns an answer other than 2xx into an *Error.
func check(res *http.Response) error {
	if res.StatusCode/100 == 2 {
		return nil
	}
	var e struct{ Message string }
	data, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	json.Unmarshal(data, &e)
	return &Error{Status: res.Status, Code: res.StatusCode, Message: e.Message}
}

func decode(res *http.Response, out any) error {
	if err := check(res); err != nil {
		return err
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		return fmt.Errorf("admin API: %s answer: %w", res.Request.URL.Path, err)
	}
	return nil
}
