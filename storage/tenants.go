package storage

import (
	"bytes"

	"contracts/signflow"
)

// Buckets of the people in contracts, added by schema 4 (tenants_migrate.go).
var (
	bucketOwners     = []byte("owners")
	bucketOwnerNames = []byte("owner_names")
	bucketClaims     = []byte("claims")
	bucketClaimNames = []byte("claim_names")
	// bucketClientsAside keeps the schema-3 client records that the
	// migration could give to no tenant; nothing reads it.
	bucketClientsAside = []byte("clients_aside")
)

func (t *tx) Owner(in string) (*signflow.Client, error) {
	c := new(signflow.Client)
	return c, t.get(bucketOwners, []byte(in), c, "Owner")
}

// PutOwner writes the owner's record and moves its name words.
func (t *tx) PutOwner(c *signflow.Client) error {
	names := t.bucket(bucketOwnerNames)
	key := func(w string) []byte { return join([]byte(w), []byte(c.IN)) }
	if old, err := t.Owner(c.IN); err == nil {
		if err := deleteWords(old, key, names.Delete); err != nil {
			return err
		}
	}
	if err := putWords(c, key, names.Put); err != nil {
		return err
	}
	return t.put(bucketOwners, []byte(c.IN), c)
}

// claimKey is <in> 0x00 <tenant>: a number's claims are together, for the
// cabinet's login.
func claimKey(tenant, in string) []byte { return join([]byte(in), []byte(tenant)) }

func (t *tx) Claim(tenant, in string) (*signflow.Client, error) {
	c := new(signflow.Client)
	return c, t.get(bucketClaims, claimKey(tenant, in), c, "Client")
}

// PutClaim writes a tenant's claim and moves its name words in the
// tenant's own name index.
func (t *tx) PutClaim(tenant string, c *signflow.Client) error {
	names := t.bucket(bucketClaimNames)
	key := func(w string) []byte { return join([]byte(tenant), []byte(w), []byte(c.IN)) }
	if old, err := t.Claim(tenant, c.IN); err == nil {
		if err := deleteWords(old, key, names.Delete); err != nil {
			return err
		}
	}
	if err := putWords(c, key, names.Put); err != nil {
		return err
	}
	return t.put(bucketClaims, claimKey(tenant, c.IN), c)
}

// ClientIN finds a record by its id (a contract's witnesses) with a scan:
// of the owners (few), then of the claims' keys, reading only the values of
// tenant's claims. An id is a UUID, so its JSON text is exact.
func (t *tx) ClientIN(tenant, id string) (string, error) {
	field := []byte(`"id":"` + id + `"`)
	c := t.bucket(bucketOwners).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if bytes.Contains(v, field) {
			return string(k), nil
		}
	}
	suffix := append([]byte{0}, tenant...)
	c = t.bucket(bucketClaims).Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if bytes.HasSuffix(k, suffix) && bytes.Contains(v, field) {
			return string(k[:len(k)-len(suffix)]), nil
		}
	}
	return "", signflow.Errorf(signflow.ENOTFOUND, "Client not found.")
}

func (t *tx) Claims(in string) ([]signflow.TenantClaim, error) {
	var out []signflow.TenantClaim
	prefix := join([]byte(in), nil)
	c := t.bucket(bucketClaims).Cursor()
	for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
		tenant := string(k[len(prefix):])
		cl, err := t.Claim(tenant, in)
		if err != nil {
			return nil, err
		}
		out = append(out, signflow.TenantClaim{Tenant: tenant, Client: cl})
	}
	return out, nil
}

func putWords(c *signflow.Client, key func(string) []byte, put func(k, v []byte) error) error {
	for _, w := range c.NameWords() {
		if err := put(key(w), nil); err != nil {
			return err
		}
	}
	return nil
}

func deleteWords(c *signflow.Client, key func(string) []byte, del func(k []byte) error) error {
	for _, w := range c.NameWords() {
		if err := del(key(w)); err != nil {
			return err
		}
	}
	return nil
}

// namesMatching returns the numbers whose name, as tenant knows it (an
// owner's record or the tenant's own claim), has for each word of s a word
// that starts with it. Words are split as NameWords splits them. Another
// tenant's claims are never searched.
func (t *tx) namesMatching(tenant, s string) map[string]bool {
	var result map[string]bool
	for _, w := range (&signflow.Client{LegalName: s}).NameWords() {
		set := map[string]bool{}
		scan := func(bucket, prefix []byte) {
			c := t.bucket(bucket).Cursor()
			for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
				if i := bytes.LastIndexByte(k, 0); i >= 0 && (result == nil || result[string(k[i+1:])]) {
					set[string(k[i+1:])] = true
				}
			}
		}
		scan(bucketOwnerNames, []byte(w))
		scan(bucketClaimNames, append(join([]byte(tenant), nil), w...))
		result = set
		if len(result) == 0 {
			return nil
		}
	}
	return result
}
