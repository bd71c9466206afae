// Package migrate copies the data of a bbolt appliance into an empty
// PostgreSQL database (contracts migrate): every record through the
// PostgreSQL store's own writes, so that its indexes, counts and name
// words are built as the appliance builds them; webhook secrets opened
// with the bbolt side's master key and encrypted again with the database's;
// the generated seal and the ACME cache from the data directory into the
// database; then the contract sequence moved past the copied contracts
// and the records counted on both sides.
package migrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"contracts/internal/config"
	"contracts/server/pdf/pades"
	"contracts/signflow"
	"contracts/storage"
	"contracts/storage/postgres"
)

// Options are what a copy needs besides its two ends.
type Options struct {
	// FromDir is the bbolt data directory: its generated seal and ACME
	// cache are copied too, when there.
	FromDir string
	// FromBox opens the webhook secrets of the bbolt file (its master
	// key); ToBox encrypts them, and the files, for the database.
	FromBox, ToBox signflow.SecretBox
	// Progress, when set, is told how many records of the total are copied.
	Progress func(done, total int)
}

// Count is the number of records of one kind on each side.
type Count struct {
	Bucket   string
	From, To int
}

// batchSize is how many records one transaction of the copy writes.
const batchSize = 500

// ErrNotEmpty says that the target database already holds records.
var ErrNotEmpty = errors.New("the target database is not empty")

// Copy copies from into to, which must be empty, and returns the counts
// of both sides; it fails when they differ.
func Copy(ctx context.Context, from *storage.DB, to *postgres.Store, opt Options) ([]Count, error) {
	before, err := to.RecordCounts(ctx)
	if err != nil {
		return nil, err
	}
	var held []string
	for bucket, n := range before {
		if n > 0 {
			held = append(held, fmt.Sprintf("%d %s", n, bucket))
		}
	}
	if len(held) > 0 {
		slices.Sort(held)
		return nil, fmt.Errorf("%w (it holds %s): migrate copies into an empty database only", ErrNotEmpty, strings.Join(held, ", "))
	}
	want, err := from.ExportCounts()
	if err != nil {
		return nil, err
	}
	total := 0
	for _, n := range want {
		total += n
	}
	c := &copier{ctx: ctx, to: to, opt: opt, total: total}
	if err := from.Export(c.record); err != nil {
		return nil, err
	}
	if err := c.flush(); err != nil {
		return nil, err
	}
	if err := copyFiles(ctx, to, opt); err != nil {
		return nil, err
	}
	if err := to.ContinueSequences(ctx); err != nil {
		return nil, err
	}
	got, err := to.RecordCounts(ctx)
	if err != nil {
		return nil, err
	}
	var counts []Count
	var differ []string
	for bucket, n := range want {
		counts = append(counts, Count{bucket, n, got[bucket]})
		if got[bucket] != n {
			differ = append(differ, fmt.Sprintf("%s: %d in the file, %d in the database", bucket, n, got[bucket]))
		}
	}
	slices.SortFunc(counts, func(a, b Count) int { return strings.Compare(a.Bucket, b.Bucket) })
	if len(differ) > 0 {
		slices.Sort(differ)
		return counts, fmt.Errorf("the counts differ after the copy: %s", strings.Join(differ, "; "))
	}
	return counts, nil
}

// copier writes the records Export gives, a batch per transaction.
type copier struct {
	ctx         context.Context
	to          *postgres.Store
	opt         Options
	batch       []func(signflow.Tx) error
	done, total int
}

func (c *copier) record(bucket string, key, value []byte) error {
	write, err := c.decode(bucket, key, value)
	if err != nil {
		return fmt.Errorf("%s %q: %w", bucket, key, err)
	}
	if write != nil {
		c.batch = append(c.batch, write)
	}
	c.done++
	if len(c.batch) >= batchSize {
		return c.flush()
	}
	if c.opt.Progress != nil && c.done%100 == 0 {
		c.opt.Progress(c.done, c.total)
	}
	return nil
}

func (c *copier) flush() error {
	if len(c.batch) > 0 {
		batch := c.batch
		c.batch = nil
		err := c.to.Update(func(tx signflow.Tx) error {
			for _, w := range batch {
				if err := w(tx); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if c.opt.Progress != nil {
		c.opt.Progress(c.done, c.total)
	}
	return nil
}

// decode turns one record into its write; meta values and stamps, which
// live outside transactions, are written at once.
func (c *copier) decode(bucket string, key, value []byte) (func(signflow.Tx) error, error) {
	switch bucket {
	case "meta":
		return nil, c.to.SetMeta(string(key), string(value))
	case "stamps":
		return nil, c.to.SaveStamp(c.ctx, key, value)
	case "owners":
		return put(value, func(tx signflow.Tx, v *signflow.Client) error { return tx.PutOwner(v) })
	case "claims":
		_, tenant, ok := strings.Cut(string(key), "\x00")
		if !ok {
			return nil, errors.New("a claim's key names no tenant")
		}
		return put(value, func(tx signflow.Tx, v *signflow.Client) error { return tx.PutClaim(tenant, v) })
	case "templates", "template_versions":
		return put(value, func(tx signflow.Tx, v *signflow.Template) error { return tx.PutTemplate(v) })
	case "apps":
		return put(value, func(tx signflow.Tx, v *signflow.App) error {
			if err := c.reencrypt(&v.WebhookSecretEnc, "the webhook of app "+v.ID); err != nil {
				return err
			}
			return tx.PutApp(v)
		})
	case "keys":
		return put(value, func(tx signflow.Tx, v *signflow.APIKey) error {
			if err := c.reencrypt(&v.WebhookSecretEnc, "the webhook of key "+v.ID); err != nil {
				return err
			}
			return tx.PutKey(v)
		})
	case "contracts":
		return put(value, func(tx signflow.Tx, v *signflow.Contract) error { return tx.PutContract(v) })
	case "sessions":
		return put(value, func(tx signflow.Tx, v *signflow.SignSession) error { return tx.PutSession(v) })
	case "audit":
		return put(value, func(tx signflow.Tx, v *signflow.AuditEvent) error { return tx.AddAudit(v) })
	case "deliveries":
		return put(value, func(tx signflow.Tx, v *signflow.Delivery) error { return tx.AddDelivery(v) })
	case "receipts":
		return put(value, func(tx signflow.Tx, v *signflow.Receipt) error { return tx.PutReceipt(v) })
	case "provider_txs":
		return put(value, func(tx signflow.Tx, v *signflow.ProviderTx) error { return tx.PutProviderTx(v) })
	case "merchants":
		return put(value, func(tx signflow.Tx, v *signflow.Merchant) error {
			if v.Payme != nil {
				if err := c.reencrypt(&v.Payme.KeyEnc, "the Payme account of owner "+v.OwnerIN); err != nil {
					return err
				}
			}
			if v.Click != nil {
				if err := c.reencrypt(&v.Click.SecretEnc, "the Click account of owner "+v.OwnerIN); err != nil {
					return err
				}
			}
			return tx.PutMerchant(v)
		})
	case "cabinet_logins":
		return put(value, func(tx signflow.Tx, v *signflow.CabinetLogin) error { return tx.PutCabinetLogin(v) })
	case "cabinet_sessions":
		return put(value, func(tx signflow.Tx, v *signflow.CabinetSession) error { return tx.PutCabinetSession(v) })
	case "timers":
		return put(value, func(tx signflow.Tx, v *signflow.Timer) error { return tx.PutTimer(v) })
	}
	return nil, fmt.Errorf("no copy of bucket %s", bucket)
}

// put decodes a record now (its bytes die with the bbolt transaction) and
// returns its write; the write decodes its own copy, since a transaction
// may run again.
func put[T any](value []byte, write func(signflow.Tx, *T) error) (func(signflow.Tx) error, error) {
	if err := json.Unmarshal(value, new(T)); err != nil {
		return nil, err
	}
	data := slices.Clone(value)
	return func(tx signflow.Tx) error {
		v := new(T)
		if err := json.Unmarshal(data, v); err != nil {
			return err
		}
		return write(tx, v)
	}, nil
}

// reencrypt opens a webhook secret with the bbolt side's master key and
// encrypts it with the database's.
func (c *copier) reencrypt(enc *[]byte, owner string) error {
	if len(*enc) == 0 {
		return nil
	}
	plain, err := c.opt.FromBox.Decrypt(*enc)
	if err != nil {
		return fmt.Errorf("the secret of %s does not open with the bbolt side's master key: give the key the bbolt appliance ran with (--from-master-key)", owner)
	}
	again, err := c.opt.ToBox.Encrypt(plain)
	if err != nil {
		return err
	}
	*enc = again
	return nil
}

// copyFiles puts the data directory's generated seal and ACME cache into
// the database, where the nodes look for them.
func copyFiles(ctx context.Context, to *postgres.Store, opt Options) error {
	if opt.FromDir == "" {
		return nil
	}
	folder := func(prefix string) postgres.Folder {
		return postgres.Folder{Store: to, Box: opt.ToBox, Prefix: prefix}
	}
	for _, name := range []string{pades.CertName, pades.KeyName} {
		data, err := os.ReadFile(filepath.Join(opt.FromDir, name))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return err
		}
		if err := folder(postgres.SealFolder).Put(ctx, name, data); err != nil {
			return err
		}
	}
	acme := filepath.Join(opt.FromDir, config.ACMEDir)
	entries, err := os.ReadDir(acme)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(acme, e.Name()))
		if err != nil {
			return err
		}
		if err := folder(postgres.ACMEFolder).Put(ctx, e.Name(), data); err != nil {
			return err
		}
	}
	return nil
}
