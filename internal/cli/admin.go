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
	"contracts/server/admin"
	"contracts/server/admin/adminclient"
	"contracts/signflow"

	"github.com/spf13/pflag"
)

// adminUsage is "contracts admin --help"; each command's own flags are in
// "contracts admin <resource> <verb> --help".
func adminUsage(fs *pflag.FlagSet) string {
	var b strings.Builder
	b.WriteString("usage: contracts admin [flags] <resource> <verb> [arguments]\n\ncommands:\n")
	for _, v := range adminVerbs {
		fmt.Fprintf(&b, "  %-28s %s\n", v.name+" "+v.args, v.about)
	}
	b.WriteString(`
The URL defaults to http://<admin.listen>; the token to $CONTRACTS_ADMIN_TOKEN,
else admin.token in config, else <data.dir>/admin.token: run it where the
appliance runs (or pass --data-dir or --config), or give --url and --token.
"contracts admin <resource> <verb> --help" lists that command's flags.

flags:
`)
	b.WriteString(fs.FlagUsages())
	return b.String()
}

func adminCommand(ctx context.Context, args []string, env Env) error {
	fs := pflag.NewFlagSet("admin", pflag.ContinueOnError)
	fs.SetInterspersed(false)
	config.AddFlags(fs)
	url := fs.String("url", "", "admin API base URL (default http://<admin.listen>)")
	token := fs.String("token", "", "admin token (default $CONTRACTS_ADMIN_TOKEN, admin.token, <data.dir>/admin.token)")
	asJSON := fs.Bool("json", false, "print the raw JSON answer")
	if err := parseFlags(fs, args, env, func() string { return adminUsage(fs) }); err != nil {
		return err
	}
	rest := fs.Args()
	if len(rest) < 2 {
		fmt.Fprint(env.Stderr, adminUsage(fs))
		return fmt.Errorf("admin: a resource and a verb are required")
	}
	call, err := adminRequest(rest, env)
	if err != nil {
		return err
	}
	cfg, err := config.Load(fs, env.Environ)
	if err != nil {
		return err
	}
	client, from := newAdminClient(cfg, env, *url, *token, time.Minute)
	answer, err := call.run(ctx, client)
	if err != nil {
		return call.explain(err, from)
	}
	return printAnswer(env.Stdout, answer, *asJSON)
}

// newAdminClient is a client of the configured appliance's admin API, or
// of url with token when given; from says where the token came from.
func newAdminClient(cfg *config.Config, env Env, url, token string, timeout time.Duration) (*adminclient.Client, string) {
	c := &adminclient.Client{URL: url, Token: token, HTTP: &http.Client{Timeout: timeout}}
	if c.URL == "" {
		c.URL = adminURL(cfg)
	}
	from := "--token"
	if c.Token == "" {
		c.Token, from = adminToken(cfg, env)
	}
	return c, from
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

// adminToken is the token the client sends, and where it was found (or
// where it was looked for, when nowhere).
func adminToken(cfg *config.Config, env Env) (string, string) {
	if t := env.getenv("CONTRACTS_ADMIN_TOKEN"); t != "" {
		return t, "$CONTRACTS_ADMIN_TOKEN"
	}
	if cfg.Admin.Token != "" {
		return cfg.Admin.Token, "admin.token in the configuration"
	}
	path := cfg.DataPath(config.AdminTokenFile)
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return "", "no token: " + path + " does not exist, and neither $CONTRACTS_ADMIN_TOKEN nor admin.token is set; " +
			"run it where the appliance runs, or pass --data-dir, --config or --token"
	}
	return strings.TrimSpace(string(data)), path
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
	if raw {
		_, err := fmt.Fprintf(w, "%s\n", data)
		return err
	}
	if o, ok := answer.(*admin.OwnerSaved); ok {
		fmt.Fprintln(w, ownerNote(o))
	}
	var list []map[string]any
	if json.Unmarshal(data, &list) == nil {
		if len(list) == 0 {
			_, err := fmt.Fprintln(w, "none")
			return err
		}
		for i, obj := range list {
			if i > 0 {
				fmt.Fprintln(w)
			}
			if err := printObject(w, obj); err != nil {
				return err
			}
		}
		return nil
	}
	var obj map[string]any
	if json.Unmarshal(data, &obj) != nil {
		_, err := fmt.Fprintf(w, "%s\n", data)
		return err
	}
	return printObject(w, obj)
}

// ownerNote says whether an owner was created, updated (and which fields)
// or already so: a number used again must not change an owner unseen.
func ownerNote(o *admin.OwnerSaved) string {
	if o.Result == signflow.OwnerUpdated {
		return fmt.Sprintf("updated owner %s: changed %s", o.IN, strings.Join(o.Changed, ", "))
	}
	if o.Result == signflow.OwnerUnchanged {
		return fmt.Sprintf("owner %s already exists as given: nothing changed", o.IN)
	}
	return "created owner " + o.IN
}

// printObject prints one object as sorted "key: value" lines.
func printObject(w io.Writer, obj map[string]any) error {
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
	_, err := w.Write(b.Bytes())
	return err
}
