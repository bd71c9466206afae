package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"contracts/internal/config"
	"contracts/server/admin/adminclient"
	"contracts/signflow"

	"github.com/spf13/pflag"
)

const adminUsage = `usage: contracts admin [--url URL] [--token TOKEN] [--json] <command>

  owner create --in N --type CLIENT|COMPANY [--legal-name S] [--first-name S --last-name S] [--phone P]
  template create --file FILE.yaml|FILE.json
  template update TEMPLATE_ID --file FILE.yaml|FILE.json   (stores the next version)
  template publish TEMPLATE_ID
  template unpublish TEMPLATE_ID
  app create --name S --owner IN --scopes A,B [--all-templates | --templates ID,ID]
             [--webhook-url URL] [--webhook-events E,E] [--expires-at RFC3339]
  app rotate-secret APP_ID
  app cancel APP_ID
  key create --name S --owner IN --scopes A,B [--all-templates | --templates ID,ID]
             [--webhook-url URL] [--expires-at RFC3339]
  key revoke KEY_ID
  delivery list [--contract ID] [--status PENDING|DELIVERED|FAILED]
  delivery redeliver DELIVERY_ID

The URL defaults to http://<admin.listen>; the token to $CONTRACTS_ADMIN_TOKEN,
else admin.token in config, else <data.dir>/admin.token.
`

// adminCall is one admin API call; it returns the answer to print (nil:
// none).
type adminCall func(ctx context.Context, c *adminclient.Client) (any, error)

func adminCommand(ctx context.Context, args []string, env Env) error {
	fs := pflag.NewFlagSet("admin", pflag.ContinueOnError)
	fs.SetInterspersed(false)
	config.AddFlags(fs)
	url := fs.String("url", "", "admin API base URL")
	token := fs.String("token", "", "admin token")
	asJSON := fs.Bool("json", false, "print the raw JSON answer")
	if err := fs.Parse(args); err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) < 2 {
		fmt.Fprint(env.Stdout, adminUsage)
		return fmt.Errorf("admin: a resource and a verb are required")
	}
	cfg, err := config.Load(fs, env.Environ)
	if err != nil {
		return err
	}
	call, err := adminRequest(rest)
	if err != nil {
		return err
	}
	answer, err := call(ctx, newAdminClient(cfg, env, *url, *token, time.Minute))
	if err != nil {
		return err
	}
	return printAnswer(env.Stdout, answer, *asJSON)
}

// newAdminClient is a client of the configured appliance's admin API, or
// of url with token when given.
func newAdminClient(cfg *config.Config, env Env, url, token string, timeout time.Duration) *adminclient.Client {
	c := &adminclient.Client{URL: url, Token: token, HTTP: &http.Client{Timeout: timeout}}
	if c.URL == "" {
		c.URL = adminURL(cfg)
	}
	if c.Token == "" {
		c.Token = adminToken(cfg, env)
	}
	return c
}

// adminURL is the admin API's address as a client reaches it.
func adminURL(cfg *config.Config) string {
	if cfg.Admin.TLS.CertFile != "" {
		return "https://" + dialable(cfg.Admin.Listen)
	}
	return "http://" + dialable(cfg.Admin.Listen)
}

// dialable turns a listen address into one a client can dial.
func dialable(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}

func adminToken(cfg *config.Config, env Env) string {
	if t := env.getenv("CONTRACTS_ADMIN_TOKEN"); t != "" {
		return t
	}
	if cfg.Admin.Token != "" {
		return cfg.Admin.Token
	}
	data, _ := os.ReadFile(cfg.DataPath(config.AdminTokenFile))
	return strings.TrimSpace(string(data))
}

// adminRequest turns "resource verb [flags]" into an admin API call.
func adminRequest(args []string) (adminCall, error) {
	res, verb, rest := args[0], args[1], args[2:]
	fs := pflag.NewFlagSet(res+" "+verb, pflag.ContinueOnError)
	str := func(name string) *string { return fs.String(name, "", "") }
	list := func(name string) *[]string { return fs.StringSlice(name, nil, "") }
	in, typ, legal, first, last, phone := str("in"), str("type"), str("legal-name"), str("first-name"), str("last-name"), str("phone")
	file, name, owner, hook, expires := str("file"), str("name"), str("owner"), str("webhook-url"), str("expires-at")
	contract, status := str("contract"), str("status")
	scopes, templates, events := list("scopes"), list("templates"), list("webhook-events")
	all := fs.Bool("all-templates", false, "")
	if err := fs.Parse(rest); err != nil {
		return nil, err
	}
	id := func() (string, error) {
		if fs.NArg() != 1 {
			return "", fmt.Errorf("admin %s %s: one id argument is required", res, verb)
		}
		return fs.Arg(0), nil
	}
	credential := func() (*signflow.CredentialInput, error) {
		c := &signflow.CredentialInput{Name: *name, OwnerIN: *owner, Scopes: *scopes, AllTemplates: *all,
			TemplateIDs: *templates, WebhookURL: *hook}
		if res == "app" {
			c.WebhookEvents = *events
		}
		if *expires != "" {
			t, err := time.Parse(time.RFC3339, *expires)
			if err != nil {
				return nil, fmt.Errorf("--expires-at: %q is not an RFC 3339 time such as 2030-01-01T00:00:00Z", *expires)
			}
			c.ExpiresAt = &t
		}
		return c, nil
	}
	switch res + " " + verb {
	case "owner create":
		o := &signflow.Client{IN: *in, Type: *typ, LegalName: *legal, FirstName: *first, LastName: *last, Phone: *phone}
		return func(ctx context.Context, c *adminclient.Client) (any, error) { return c.CreateOwner(ctx, o) }, nil
	case "template create", "template update":
		def, err := os.ReadFile(*file)
		if err != nil {
			return nil, fmt.Errorf("--file: %w", err)
		}
		ext := strings.ToLower(filepath.Ext(*file))
		isYAML := ext == ".yaml" || ext == ".yml"
		if verb == "create" {
			return func(ctx context.Context, c *adminclient.Client) (any, error) {
				return c.CreateTemplate(ctx, def, isYAML)
			}, nil
		}
		id, err := id()
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, c *adminclient.Client) (any, error) {
			return c.UpdateTemplate(ctx, id, def, isYAML)
		}, nil
	case "app create", "key create":
		in, err := credential()
		if err != nil {
			return nil, err
		}
		if res == "app" {
			return func(ctx context.Context, c *adminclient.Client) (any, error) { return c.CreateApp(ctx, in) }, nil
		}
		return func(ctx context.Context, c *adminclient.Client) (any, error) { return c.CreateKey(ctx, in) }, nil
	case "template publish", "template unpublish":
		id, err := id()
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, c *adminclient.Client) (any, error) {
			if verb == "publish" {
				return nil, c.PublishTemplate(ctx, id)
			}
			return nil, c.UnpublishTemplate(ctx, id)
		}, nil
	case "app rotate-secret", "app cancel", "key revoke", "delivery redeliver":
		id, err := id()
		if err != nil {
			return nil, err
		}
		return func(ctx context.Context, c *adminclient.Client) (any, error) {
			switch verb {
			case "rotate-secret":
				return c.RotateAppSecret(ctx, id)
			case "cancel":
				return nil, c.CancelApp(ctx, id)
			case "revoke":
				return nil, c.RevokeKey(ctx, id)
			}
			return c.Redeliver(ctx, id)
		}, nil
	case "delivery list":
		return func(ctx context.Context, c *adminclient.Client) (any, error) {
			return c.Deliveries(ctx, *contract, *status)
		}, nil
	}
	return nil, fmt.Errorf("admin: unknown command %q (run \"contracts admin\" for help)", res+" "+verb)
}

// printAnswer prints the answer as JSON when raw or when it is not an
// object, else as "key: value" lines; "ok" when there is none.
func printAnswer(w io.Writer, answer any, raw bool) error {
	if answer == nil {
		_, err := fmt.Fprintln(w, "ok")
		return err
	}
	data, err := json.Marshal(answer)
	if err != nil {
		return err
	}
	var obj map[string]any
	if raw || json.Unmarshal(data, &obj) != nil {
		_, err := fmt.Fprintf(w, "%s\n", data)
		return err
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	for _, k := range keys {
		v, _ := json.Marshal(obj[k])
		if s, ok := obj[k].(string); ok {
			v = []byte(s)
		}
		fmt.Fprintf(&b, "%s: %s\n", k, v)
	}
	_, err = w.Write(b.Bytes())
	return err
}
