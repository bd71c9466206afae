package postgres

import (
	"encoding/json"
	"errors"

	"contracts/signflow"

	"github.com/jackc/pgx/v5"
)

var (
	templates = newTable("templates", "Template", []string{"id"}, nil)
	// templateVersions keeps every version of every template (schema 3).
	templateVersions = newTable("template_versions", "Template version", []string{"id", "version"}, nil)
	apps             = newTable("apps", "App", []string{"id"}, nil)
	apiKeys          = newTable("api_keys", "Key", []string{"id"}, []string{"hash", "owner_in"})
	owners           = newTable("owners", "Owner", []string{"client_in"}, nil)
	claims           = newTable("claims", "Client", []string{"client_in", "tenant"}, nil)
)

// bumpCredentials moves the credentials version on in the transaction of
// a change of an app, a key (signflow.Shared) or an owner's record
// (credcache.go).
const bumpCredentials = "UPDATE credentials_version SET n = n + 1"

func (t *tx) Templates() ([]*signflow.Template, error) {
	return list[signflow.Template](t, "SELECT data FROM templates ORDER BY id")
}

func (t *tx) TemplateVersion(id string, version int) (*signflow.Template, error) {
	v := new(signflow.Template)
	return v, t.read(templateVersions, []any{id, version}, v)
}

func (t *tx) TemplateVersions(id string) ([]*signflow.Template, error) {
	if !validText(id) {
		return nil, nil
	}
	return list[signflow.Template](t, "SELECT data FROM template_versions WHERE id = $1 ORDER BY version", id)
}

func (t *tx) PutTemplate(v *signflow.Template) error {
	t.tplWritten = true
	if err := t.write(templates, []any{v.ID}, nil, v); err != nil {
		return err
	}
	return t.write(templateVersions, []any{v.ID, v.Version}, nil, v)
}

func (t *tx) PutApp(v *signflow.App) error {
	t.credWritten = true
	t.queue(nil, bumpCredentials)
	return t.write(apps, []any{v.ID}, nil, v)
}

func (t *tx) Key(id string) (*signflow.APIKey, error) {
	v := new(signflow.APIKey)
	return v, t.read(apiKeys, []any{id}, v)
}

func (t *tx) KeyByHash(hash []byte) (*signflow.APIKey, error) {
	var (
		id   string
		ver  int64
		data []byte
	)
	if err := t.queryRow([]any{&id, &ver, &data}, "SELECT id, ver, data FROM api_keys WHERE hash = $1", hash); err != nil {
		return nil, notFound(err, "Key")
	}
	t.saw(apiKeys, []any{id}, ver)
	v := new(signflow.APIKey)
	return v, json.Unmarshal(data, v)
}

func (t *tx) PutKey(v *signflow.APIKey) error {
	t.credWritten = true
	t.queue(nil, bumpCredentials)
	return t.write(apiKeys, []any{v.ID}, []any{v.Hash, v.OwnerIN}, v)
}

func (t *tx) Owner(in string) (*signflow.Client, error) {
	key := []any{in}
	c := new(signflow.Client)
	if _, ok := t.aheadOf(owners, key); ok || !validText(in) {
		return c, t.read(owners, key, c)
	}
	if version, ok := t.credsAt(); ok {
		if o, hit := t.creds.owner(version, in); hit {
			t.trustedCredVer()
			t.fedByCache(true)
			t.sawKey(owners.key1(in), o.ver)
			*c = o.c
			return c, nil
		}
	}
	p, version, ok := t.cachedOwner(in)
	if !ok {
		if err := t.ownerWithClaims(in); err != nil {
			return nil, err
		}
		return c, t.read(owners, key, c)
	}
	t.ahead[owners.seenKey(key)] = p
	err := t.read(owners, key, c)
	if err == nil && c.IN == in {
		t.creds.putOwner(version, p.ver, c)
	}
	return c, err
}

// PutOwner writes the owner's record and replaces its name words.
func (t *tx) PutOwner(c *signflow.Client) error {
	t.credWritten = true
	t.queue(nil, bumpCredentials)
	t.queue(nil, "DELETE FROM owner_names WHERE client_in = $1", c.IN)
	t.queue(nil, `INSERT INTO owner_names (word, client_in)
		SELECT DISTINCT unnest($1::text[]), $2::text ON CONFLICT DO NOTHING`, c.NameWords(), c.IN)
	return t.write(owners, []any{c.IN}, nil, c)
}

func (t *tx) Claim(tenant, in string) (*signflow.Client, error) {
	k, sk, ok, err := t.keptClaim(tenant, in)
	if err != nil {
		return nil, err
	}
	if ok {
		t.sawKey(sk, k.ver)
		if k.c == nil {
			return nil, signflow.Errorf(signflow.ENOTFOUND, "%s not found.", claims.what)
		}
		c := *k.c
		return &c, nil
	}
	c := new(signflow.Client)
	return c, t.read(claims, []any{in, tenant}, c)
}

// PutClaim writes a tenant's claim and replaces its words in the tenant's
// own name index.
func (t *tx) PutClaim(tenant string, c *signflow.Client) error {
	if t.claimsKept != nil && validText(tenant) && validText(c.IN) {
		t.claimsKept.drop(claims.seenKey([]any{c.IN, tenant}))
	}
	t.queue(nil, "DELETE FROM claim_names WHERE tenant = $1 AND client_in = $2", tenant, c.IN)
	t.queue(nil, `INSERT INTO claim_names (tenant, word, client_in)
		SELECT DISTINCT $1::text, unnest($2::text[]), $3::text ON CONFLICT DO NOTHING`, tenant, c.NameWords(), c.IN)
	return t.write(claims, []any{c.IN, tenant}, nil, c)
}

// ClientIN finds a record by its id (a contract's witnesses), through the
// indexes by id (openTables).
func (t *tx) ClientIN(tenant, id string) (string, error) {
	if !validText(tenant) || !validText(id) {
		return "", signflow.Errorf(signflow.ENOTFOUND, "Client not found.")
	}
	var in string
	if err := t.queryRow([]any{&in}, clientByID, tenant, id); err != nil {
		return "", notFound(err, "Client")
	}
	return in, nil
}

// clientByID is the number of the owner's record or of tenant ($1)'s claim
// whose id is $2.
const clientByID = `SELECT client_in FROM owners WHERE data->>'id' = $2
	UNION ALL SELECT client_in FROM claims WHERE tenant = $1 AND data->>'id' = $2 LIMIT 1`

func (t *tx) Claims(in string) ([]signflow.TenantClaim, error) {
	if !validText(in) {
		return nil, nil
	}
	rows, err := t.query("SELECT tenant, ver, data FROM claims WHERE client_in = $1 ORDER BY tenant", in)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []signflow.TenantClaim
	for rows.Next() {
		var (
			tenant string
			ver    int64
			data   []byte
		)
		if err := rows.Scan(&tenant, &ver, &data); err != nil {
			return nil, err
		}
		c := new(signflow.Client)
		if err := json.Unmarshal(data, c); err != nil {
			return nil, err
		}
		t.saw(claims, []any{in, tenant}, ver)
		out = append(out, signflow.TenantClaim{Tenant: tenant, Client: c})
	}
	return out, rows.Err()
}

// list decodes the data of every row the query returns.
func list[T any](t *tx, sql string, args ...any) ([]*T, error) {
	rows, err := t.query(sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*T
	for rows.Next() {
		var data []byte
		if err := rows.Scan(&data); err != nil {
			return nil, err
		}
		v := new(T)
		if err := json.Unmarshal(data, v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// notFound turns an empty lookup into ENOTFOUND for what.
func notFound(err error, what string) error {
	if errors.Is(err, pgx.ErrNoRows) {
		return signflow.Errorf(signflow.ENOTFOUND, "%s not found.", what)
	}
	return err
}
