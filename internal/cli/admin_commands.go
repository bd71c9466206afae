package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"contracts/server/admin/adminclient"
	"contracts/signflow"

	"github.com/spf13/pflag"
)

// adminVerb is one "contracts admin <resource> <verb>": its flags, each
// with the API field it fills, and the call it makes.
type adminVerb struct {
	name, args, about string
	// flags declares the command's flags on fs and returns the call they make.
	flags func(fs *pflag.FlagSet, res, verb string) func() (adminCall, error)
}

// adminCall is one admin API call; it returns the answer to print (nil: none).
type adminCall func(ctx context.Context, c *adminclient.Client) (any, error)

// adminRun is a parsed admin command, ready to call.
type adminRun struct {
	call  adminCall
	flags map[string]string // API field -> the flag that was given for it
}

var adminVerbs = []adminVerb{
	{"owner create", "--in N --type INDIVIDUAL|COMPANY ...", "create an owner, or update the fields given of an existing one", ownerFlags},
	{"owner payments", "--in N [--payme-...] [--click-...]", "set the owner's Payme and Click merchant accounts", paymentsFlags},
	{"template create", "--file FILE", "create a template from a YAML or JSON definition", templateFlags},
	{"template update", "TEMPLATE_ID --file FILE", "store a new definition as the template's next version", templateFlags},
	{"template publish", "TEMPLATE_ID", "let new contracts use a template", idVerb},
	{"template unpublish", "TEMPLATE_ID", "keep new contracts from using a template (a draft)", idVerb},
	{"app create", "--name S --owner IN --scopes A,B ...", "create an embedded-interface app; prints its secrets once", credentialFlags},
	{"app rotate-secret", "APP_ID", "give an app a new secret; the old one and its tokens stop working", idVerb},
	{"app cancel", "APP_ID", "cancel an app", idVerb},
	{"key create", "--name S --owner IN --scopes A,B ...", "create a key-interface API key; prints it once", credentialFlags},
	{"key revoke", "KEY_ID", "revoke an API key", idVerb},
	{"delivery list", "[--contract ID] [--status S]", "list webhook deliveries", deliveryFlags},
	{"delivery redeliver", "DELIVERY_ID", "send a delivery again under the same id", idVerb},
}

// adminRequest parses "resource verb [flags]" into an admin API call;
// --help prints the command's own flags.
func adminRequest(args []string, env Env) (*adminRun, error) {
	res, verb := args[0], args[1]
	for _, v := range adminVerbs {
		if v.name != res+" "+verb {
			continue
		}
		fs := pflag.NewFlagSet("admin "+v.name, pflag.ContinueOnError)
		build := v.flags(fs, res, verb)
		usage := func() string {
			return fmt.Sprintf("usage: contracts admin %s %s\n\n%s.\n\nflags:\n%s", v.name, v.args, v.about, fs.FlagUsages())
		}
		if err := parseFlags(fs, args[2:], env, usage); err != nil {
			return nil, err
		}
		call, err := build()
		if err != nil {
			return nil, err
		}
		run := &adminRun{call: call, flags: map[string]string{}}
		fs.Visit(func(f *pflag.Flag) {
			if field := f.Annotations["field"]; len(field) == 1 {
				run.flags[field[0]] = "--" + f.Name
			}
		})
		return run, nil
	}
	return nil, fmt.Errorf("admin: unknown command %q (run \"contracts admin --help\")", res+" "+verb)
}

func (r *adminRun) run(ctx context.Context, c *adminclient.Client) (any, error) {
	return r.call(ctx, c)
}

// explain words an API refusal for the command line: a field the caller
// gave as a flag is named by the flag, and a wrong token by where it came from.
func (r *adminRun) explain(err error, tokenFrom string) error {
	var api *adminclient.Error
	if !errors.As(err, &api) {
		return err
	}
	if api.Code == 401 && strings.HasPrefix(tokenFrom, "no token") {
		return fmt.Errorf("%w (%s)", err, tokenFrom)
	} else if api.Code == 401 {
		return fmt.Errorf("%w (the token was read from %s)", err, tokenFrom)
	}
	field, rest, ok := strings.Cut(api.Message, ": ")
	base := field
	if i := strings.IndexAny(field, "[."); i > 0 {
		base = field[:i]
	}
	if flag := r.flags[field]; ok && flag != "" && field != base {
		return fmt.Errorf("admin API: %s: %s: %s", api.Status, flag, rest)
	}
	if flag := r.flags[base]; ok && flag != "" {
		return fmt.Errorf("admin API: %s: %s%s: %s", api.Status, flag, field[len(base):], rest)
	}
	return err
}

// field declares which API field a flag fills, so that refusals name the flag.
func field(fs *pflag.FlagSet, flag, apiField string) {
	_ = fs.SetAnnotation(flag, "field", []string{apiField})
}

func str(fs *pflag.FlagSet, name, apiField, usage string) *string {
	p := fs.String(name, "", usage)
	field(fs, name, apiField)
	return p
}

func ownerFlags(fs *pflag.FlagSet, _, _ string) func() (adminCall, error) {
	in := str(fs, "in", "in", "the owner's number: 9 digits (company) or 14 (individual)")
	typ := str(fs, "type", "type", "INDIVIDUAL or COMPANY (default: by the number's length)")
	legal := str(fs, "legal-name", "legalName", "a company's name")
	first := str(fs, "first-name", "firstName", "an individual's first name")
	last := str(fs, "last-name", "lastName", "an individual's last name")
	phone := str(fs, "phone", "phone", "the phone the owner logs into the cabinet with")
	return func() (adminCall, error) {
		if *in == "" {
			return nil, fmt.Errorf("admin owner create: --in is required")
		}
		o := &signflow.Client{IN: *in, Type: *typ, LegalName: *legal, FirstName: *first, LastName: *last, Phone: *phone}
		return func(ctx context.Context, c *adminclient.Client) (any, error) { return c.CreateOwner(ctx, o) }, nil
	}
}

// paymentsFlags fill an owner's merchant accounts; a provider none of
// whose flags is given keeps its account.
func paymentsFlags(fs *pflag.FlagSet, _, _ string) func() (adminCall, error) {
	in := fs.String("in", "", "the owner's number")
	paymeID := str(fs, "payme-merchant-id", "payme.merchantId", "the Payme cashbox's id (merchant id)")
	paymeKey := str(fs, "payme-key", "payme.key", "the Payme cashbox's key (the test key against Payme's sandbox)")
	clickService := str(fs, "click-service-id", "click.serviceId", "the Click service's id")
	clickMerchant := str(fs, "click-merchant-id", "click.merchantId", "the Click merchant's id")
	clickSecret := str(fs, "click-secret-key", "click.secretKey", "the Click service's secret key")
	return func() (adminCall, error) {
		if *in == "" {
			return nil, fmt.Errorf("admin owner payments: --in is required")
		}
		m := &signflow.MerchantInput{}
		payme, err := together(fs, "payme-merchant-id", "payme-key")
		if err != nil {
			return nil, err
		} else if payme {
			m.Payme = &signflow.PaymeInput{MerchantID: *paymeID, Key: *paymeKey}
		}
		click, err := together(fs, "click-service-id", "click-merchant-id", "click-secret-key")
		if err != nil {
			return nil, err
		} else if click {
			m.Click = &signflow.ClickInput{ServiceID: *clickService, MerchantID: *clickMerchant, SecretKey: *clickSecret}
		}
		if m.Payme == nil && m.Click == nil {
			return nil, fmt.Errorf("admin owner payments: give the --payme-... flags, the --click-... flags, or both (run \"contracts admin owner payments --help\")")
		}
		return func(ctx context.Context, c *adminclient.Client) (any, error) { return c.SetPayments(ctx, *in, m) }, nil
	}
}

// together says whether the flags, which make one account, were given:
// all of them, or none.
func together(fs *pflag.FlagSet, names ...string) (bool, error) {
	given := 0
	for _, n := range names {
		if fs.Changed(n) {
			given++
		}
	}
	if given > 0 && given < len(names) {
		return false, fmt.Errorf("admin owner payments: --%s go together: give all of them", strings.Join(names, ", --"))
	}
	return given > 0, nil
}

func templateFlags(fs *pflag.FlagSet, _, verb string) func() (adminCall, error) {
	file := fs.String("file", "", "the template definition, .yaml/.yml or .json (format: docs/templates.md)")
	return func() (adminCall, error) {
		if *file == "" {
			return nil, fmt.Errorf("admin template %s: --file is required (a YAML or JSON definition)", verb)
		}
		if verb == "update" && fs.NArg() != 1 {
			return nil, fmt.Errorf("admin template update: one id argument is required")
		}
		def, err := os.ReadFile(*file)
		if err != nil {
			return nil, fmt.Errorf("--file: %w", err)
		}
		ext := strings.ToLower(filepath.Ext(*file))
		isYAML := ext == ".yaml" || ext == ".yml"
		if verb == "update" {
			id := fs.Arg(0)
			return func(ctx context.Context, c *adminclient.Client) (any, error) {
				return c.UpdateTemplate(ctx, id, def, isYAML)
			}, nil
		}
		return func(ctx context.Context, c *adminclient.Client) (any, error) {
			return c.CreateTemplate(ctx, def, isYAML)
		}, nil
	}
}

func credentialFlags(fs *pflag.FlagSet, res, _ string) func() (adminCall, error) {
	name := str(fs, "name", "name", "a name people recognise it by")
	owner := str(fs, "owner", "ownerIn", "the number of the owner it acts for")
	hook := str(fs, "webhook-url", "webhookUrl", "where events are POSTed (optional)")
	expires := str(fs, "expires-at", "expiresAt", "when it stops working, RFC 3339 (optional)")
	scopes := fs.StringSlice("scopes", nil, "comma-separated scopes, e.g. CONTRACTS_READ,CONTRACTS_WRITE")
	field(fs, "scopes", "scopes")
	templates := fs.StringSlice("templates", nil, "comma-separated template ids it may use")
	field(fs, "templates", "templateIds")
	all := fs.Bool("all-templates", false, "it may use every template")
	field(fs, "all-templates", "allTemplates")
	var events *[]string
	if res == "app" {
		events = fs.StringSlice("webhook-events", nil, "comma-separated events to receive (default all)")
		field(fs, "webhook-events", "webhookEvents")
	}
	return func() (adminCall, error) {
		in := &signflow.CredentialInput{Name: *name, OwnerIN: *owner, Scopes: *scopes, AllTemplates: *all,
			TemplateIDs: *templates, WebhookURL: *hook}
		if events != nil {
			in.WebhookEvents = *events
		}
		if *expires != "" {
			t, err := time.Parse(time.RFC3339, *expires)
			if err != nil {
				return nil, fmt.Errorf("--expires-at: %q is not an RFC 3339 time such as 2030-01-01T00:00:00Z", *expires)
			}
			in.ExpiresAt = &t
		}
		if res == "app" {
			return func(ctx context.Context, c *adminclient.Client) (any, error) { return c.CreateApp(ctx, in) }, nil
		}
		return func(ctx context.Context, c *adminclient.Client) (any, error) { return c.CreateKey(ctx, in) }, nil
	}
}

func deliveryFlags(fs *pflag.FlagSet, _, _ string) func() (adminCall, error) {
	contract := fs.String("contract", "", "only the deliveries of this contract id")
	status := fs.String("status", "", "only PENDING, DELIVERED or FAILED")
	return func() (adminCall, error) {
		return func(ctx context.Context, c *adminclient.Client) (any, error) {
			return c.Deliveries(ctx, *contract, *status)
		}, nil
	}
}

// idVerb is a command of one id argument and no flags.
func idVerb(fs *pflag.FlagSet, res, verb string) func() (adminCall, error) {
	return func() (adminCall, error) {
		if fs.NArg() != 1 {
			return nil, fmt.Errorf("admin %s %s: one id argument is required", res, verb)
		}
		id := fs.Arg(0)
		return func(ctx context.Context, c *adminclient.Client) (any, error) {
			switch verb {
			case "publish":
				return nil, c.PublishTemplate(ctx, id)
			case "unpublish":
				return nil, c.UnpublishTemplate(ctx, id)
			case "rotate-secret":
				return c.RotateAppSecret(ctx, id)
			case "cancel":
				return nil, c.CancelApp(ctx, id)
			case "revoke":
				return nil, c.RevokeKey(ctx, id)
			}
			return c.Redeliver(ctx, id)
		}, nil
	}
}
