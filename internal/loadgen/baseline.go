package loadgen

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"

	"github.com/google/uuid"
	"github.com/labstack/echo/v4"
	bolt "go.etcd.io/bbolt"
)

// ServeEcho is the read baseline of the budgets: a bare echo handler writing
// a small JSON object, no middleware. It prints "listening ADDR" on out and
// serves on a loopback port until stdin reaches end of file.
func ServeEcho(stdin io.Reader, out io.Writer) error {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.GET("/ping", func(c echo.Context) error {
		return c.JSON(http.StatusOK, map[string]string{"id": "8a0c6e3e-3f0d-4a53-9f43-5d2b1f6a0c11", "status": "ok"})
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: e}
	fmt.Fprintf(out, "listening %s\n", ln.Addr())
	go func() {
		_, _ = io.Copy(io.Discard, stdin)
		srv.Close()
	}()
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		return err
	}
	return nil
}

// echoPhase measures the bare echo baseline served by its own process.
func echoPhase(client *http.Client, addr string) phase {
	url := "http://" + addr + "/ping"
	return phase{name: nameEcho, op: httpOp(client, http.StatusOK, func(int) (*http.Request, error) {
		return http.NewRequest(http.MethodGet, url, nil)
	}, nil)}
}

// rawBolt is the write baseline of the budgets: one db.Batch per record,
// putting a record of the stored contract's size under a random UUID key
// (as contracts are keyed), with the server's MaxBatchDelay, from as many
// concurrent writers. It returns the phase and a function that closes and
// removes its file.
func rawBolt(cfg Config, dir string, size int) (phase, func(), error) {
	path := filepath.Join(dir, "raw.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		return phase{}, nil, err
	}
	closeRaw := func() { db.Close(); os.Remove(path) }
	db.MaxBatchDelay = cfg.BatchDelay
	bucket := []byte("raw")
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists(bucket); return err }); err != nil {
		closeRaw()
		return phase{}, nil, err
	}
	record := bytes.Repeat([]byte("x"), size)
	p := phase{name: fmt.Sprintf("%s (%d B)", nameRaw, size), op: func(context.Context, int) (bool, bool, string) {
		key := []byte(uuid.NewString())
		if err := db.Batch(func(tx *bolt.Tx) error { return tx.Bucket(bucket).Put(key, record) }); err != nil {
			return false, false, err.Error()
		}
		return true, false, ""
	}}
	return p, closeRaw, nil
}

// storedContracts opens the stopped server's file and returns the mean size
// of a stored contract record and which of ids are missing.
func storedContracts(path string, ids []string) (mean int, missing []string, total int, err error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		return 0, nil, 0, err
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("contracts"))
		if b == nil {
			return fmt.Errorf("%s has no contracts bucket", path)
		}
		var sum int
		_ = b.ForEach(func(k, v []byte) error { sum += len(v); total++; return nil })
		if total > 0 {
			mean = sum / total
		}
		for _, id := range ids {
			if b.Get([]byte(id)) == nil {
				missing = append(missing, id)
			}
		}
		return nil
	})
	return mean, missing, total, err
}
