package main

import (
	"bytes"
	"context"
	"contracts/internal/config"
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

	"github.com/spf13/pflag"
)

const adminUsage = `usage: contracts admin [--url URL] [--token TOKEN] [--json] <command>

  owner create --in N --type CLIENT|COMPANY [--legal-name S] [--first-name S --last-name S] [--phone P]
  template create --file FILE.yaml|FILE.json
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

// adminClient calls the admin API.
type adminClient struct {
	url, token string
	http       *http.Client
}

func adminCommand(ctx context.Context, args []string, stdout io.Writer) error {
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
		fmt.Fprint(stdout, adminUsage)
		return fmt.Errorf("admin: a resource and a verb are required")
	}
	cfg, err := config.Load(fs, os.Environ())
	if err != nil {
		return err
	}
	c := &adminClient{url: *url, token: *token, http: &http.Client{Timeout: 60 * time.Second}}
	if c.url == "" {
		c.url = adminURL(cfg)
	}
	if c.token == "" {
		c.token = adminToken(cfg)
	}
	method, path, body, ctype, err := adminRequest(rest)
	if err != nil {
		return err
	}
	answer, err := c.do(ctx, method, path, body, ctype)
	if err != nil {
		return err
	}
	return printAnswer(stdout, answer, *asJSON)
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

func adminToken(cfg *config.Config) string {
	if t := os.Getenv("CONTRACTS_ADMIN_TOKEN"); t != "" {
		return t
	}
	if cfg.Admin.Token != "" {
		return cfg.Admin.Token
	}
	data, _ := os.ReadFile(filepath.Join(cfg.Data.Dir, "admin.token"))
	return strings.TrimSpace(string(data))
}

// adminRequest turns "resource verb [flags]" into an admin API call.
func adminRequest(args []string) (method, path string, body []byte, ctype string, err error) {
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
		return "", "", nil, "", err
	}
	arg := func() (string, error) {
		if fs.NArg() != 1 {
			return "", fmt.Errorf("admin %s %s: one id argument is required", res, verb)
		}
		return fs.Arg(0), nil
	}
	credential := func() ([]byte, error) {
		m := map[string]any{"name": *name, "ownerIn": *owner, "scopes": *scopes, "allTemplates": *all,
			"templateIds": *templates, "webhookUrl": *hook}
		if res == "app" {
			m["webhookEvents"] = *events
		}
		if *expires != "" {
			m["expiresAt"] = *expires
		}
		return json.Marshal(m)
	}
	switch res + " " + verb {
	case "owner create":
		body, err = json.Marshal(map[string]string{"in": *in, "type": *typ, "legalName": *legal, "firstName": *first, "lastName": *last, "phone": *phone})
		return "POST", "/admin/v1/owners", body, "application/json", err
	case "template create":
		if body, err = os.ReadFile(*file); err != nil {
			return "", "", nil, "", fmt.Errorf("--file: %w", err)
		}
		ctype = "application/json"
		if ext := strings.ToLower(filepath.Ext(*file)); ext == ".yaml" || ext == ".yml" {
			ctype = "application/yaml"
		}
		return "POST", "/admin/v1/templates", body, ctype, nil
	case "app create", "key create":
		body, err = credential()
		return "POST", "/admin/v1/" + res + "s", body, "application/json", err
	case "app rotate-secret", "app cancel", "key revoke", "delivery redeliver":
		id, err := arg()
		action := map[string]string{"rotate-secret": "secret", "cancel": "cancel", "revoke": "revoke", "redeliver": "redeliver"}[verb]
		if res == "delivery" {
			res = "deliverie"
		}
		return "POST", "/admin/v1/" + res + "s/" + id + "/" + action, nil, "", err
	case "delivery list":
		q := "?contractId=" + *contract + "&status=" + *status
		return "GET", "/admin/v1/deliveries" + q, nil, "", nil
	}
	return "", "", nil, "", fmt.Errorf("admin: unknown command %q (run \"contracts admin\" for help)", res+" "+verb)
}

func (c *adminClient) do(ctx context.Context, method, path string, body []byte, ctype string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.url+path, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("admin API at %s: %w", c.url, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		var e struct{ Message string }
		json.Unmarshal(data, &e)
		return nil, fmt.Errorf("admin API: %s: %s", resp.Status, e.Message)
	}
	return data, nil
}

// printAnswer prints raw JSON, or "key: value" lines for an object.
func printAnswer(w io.Writer, data []byte, raw bool) error {
	if len(bytes.TrimSpace(data)) == 0 {
		fmt.Fprintln(w, "ok")
		return nil
	}
	var obj map[string]any
	if raw || json.Unmarshal(data, &obj) != nil {
		_, err := w.Write(data)
		return err
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, _ := json.Marshal(obj[k])
		if s, ok := obj[k].(string); ok {
			v = []byte(s)
		}
		fmt.Fprintf(w, "%s: %s\n", k, v)
	}
	return nil
}
