package storage

import (
	"bytes"
	"encoding/json"
	"slices"
	"time"

	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// Schema 4 ends the client records that every tenant shared (bucket
// clients, schema 1 to 3): each becomes the admin's record of an owner,
// claims of the tenants that used it, or is kept aside. A shared record
// does not say who wrote it, so the rule gives a tenant a phone only when
// no other tenant could have written it; a phone that one tenant wrote
// never becomes the channel of another tenant's contracts.
//
//   - The number of an app's or a key's owner: the owner's record, whole.
//   - Any other number: the tenants that could have written the record are
//     those with an app holding CLIENTS_WRITE created no later than the
//     record's last change. The record becomes a claim of every tenant
//     that created a contract naming the number, and of the one tenant
//     that could have written it, if only one could. A claim keeps the
//     phone only when no other tenant could have written the record; else
//     it has no phone until its tenant registers the client again (POST
//     /v1/clients fills an empty phone).
//   - A record no tenant receives is kept in clients_aside, never read.
//
// Cabinet logins and sessions of schema 3 know no phone: they are dropped,
// and parties log in again.

var (
	bucketClients     = []byte("clients")      // schema 1 to 3
	bucketClientNames = []byte("client_names") // schema 1 to 3
)

// writerApp is an app able to write client records from its creation on.
type writerApp struct {
	tenant string
	since  time.Time
}

func moveClientsToTenants(btx *bolt.Tx) error {
	for _, name := range [][]byte{bucketOwners, bucketOwnerNames, bucketClaims, bucketClaimNames, bucketClientsAside} {
		if _, err := btx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	owners, writers, err := credentialOwners(btx)
	if err != nil {
		return err
	}
	t := &tx{b: btx}
	if clients := btx.Bucket(bucketClients); clients != nil {
		err := clients.ForEach(func(k, v []byte) error {
			c := new(signflow.Client)
			if err := json.Unmarshal(v, c); err != nil {
				return err
			}
			if owners[c.IN] {
				return t.PutOwner(c)
			}
			return t.spreadClaims(c, v, owners, writers)
		})
		if err != nil {
			return err
		}
	}
	for _, name := range [][]byte{bucketClients, bucketClientNames, bucketCabinetLogins, bucketCabinetSessions, bucketCabinetExpiry} {
		if btx.Bucket(name) == nil {
			continue
		}
		if err := btx.DeleteBucket(name); err != nil {
			return err
		}
	}
	return createCabinetBuckets(btx)
}

// credentialOwners returns the owners of apps and keys, and the apps that
// can write client records.
func credentialOwners(btx *bolt.Tx) (map[string]bool, []writerApp, error) {
	owners := map[string]bool{}
	var writers []writerApp
	err := btx.Bucket(bucketApps).ForEach(func(_, v []byte) error {
		var a signflow.App
		if err := json.Unmarshal(v, &a); err != nil {
			return err
		}
		owners[a.OwnerIN] = true
		if slices.Contains(a.Scopes, signflow.ScopeClientsWrite) {
			writers = append(writers, writerApp{a.OwnerIN, a.CreatedAt})
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	err = btx.Bucket(bucketKeys).ForEach(func(_, v []byte) error {
		var k signflow.APIKey
		if err := json.Unmarshal(v, &k); err != nil {
			return err
		}
		owners[k.OwnerIN] = true
		return nil
	})
	return owners, writers, err
}

// spreadClaims gives the record of a number that is no owner's to the
// tenants the rule above names, or keeps it aside (raw is its stored form).
func (t *tx) spreadClaims(c *signflow.Client, raw []byte, owners map[string]bool, writers []writerApp) error {
	var could []string // tenants that could have written the record
	for _, w := range writers {
		if !w.since.After(c.UpdatedAt) && !slices.Contains(could, w.tenant) {
			could = append(could, w.tenant)
		}
	}
	holders, err := t.contractCreators(c.IN, owners)
	if err != nil {
		return err
	}
	if len(could) == 1 && !slices.Contains(holders, could[0]) {
		holders = append(holders, could[0])
	}
	if len(holders) == 0 {
		return t.bucket(bucketClientsAside).Put([]byte(c.IN), bytes.Clone(raw))
	}
	for _, tenant := range holders {
		claim := *c
		if len(could) > 1 || len(could) == 1 && could[0] != tenant {
			claim.Phone = ""
		}
		if err := t.PutClaim(tenant, &claim); err != nil {
			return err
		}
	}
	return nil
}

// contractCreators returns the creators of the contracts naming in, a
// number that is no owner's. A creator is a party and an owner, so it is
// the other party: the index tells it without reading the contract, which
// is read only if the other party is no owner.
func (t *tx) contractCreators(in string, owners map[string]bool) ([]string, error) {
	var out []string
	prefix := join([]byte(in), nil)
	c := t.bucket(bucketContractParty).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		creator := string(summaryOther(v))
		if !owners[creator] {
			ct, err := t.Contract(string(summaryID(v)))
			if err != nil {
				return nil, err
			}
			creator = ct.CreatorIN
		}
		if !slices.Contains(out, creator) {
			out = append(out, creator)
		}
	}
	return out, nil
}
