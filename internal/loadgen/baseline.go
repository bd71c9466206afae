package loadgen

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	bolt "go.etcd.io/bbolt"
)

// The baselines are those of the shared bench kit's baseline server, so
// that this load generator's ratios and ratio.sh's are the same figure: a
// bare echo handler writing a small JSON object (GET /ping), raw bbolt
// Batch puts over HTTP (POST /put): one value of BaselineValueSize random
// bytes under a time-ordered key (as contract ids are), with the server's
// MaxBatchDelay; raw bbolt reads of one of BaselineFill stored values in a
// read transaction (GET /get/N); a webhook receiver answering 204 (POST
// /hook); and with a PostgreSQL URL the same reads and writes on a table
// there (GET /pg/get/N, POST /pg/put).

// BaselineValueSize is the size of a raw put, about one stored contract.
const BaselineValueSize = 1536

// BaselineFill is how many values /get/N reads among, as the kit's -fill.
const BaselineFill = 10000

// ServeEcho serves the baselines on a loopback port, the puts into a
// bbolt file in dir with batchDelay, and the /pg routes on pgURL when it is
// not empty. It prints "listening ADDR" on out and serves until stdin
// reaches end of file.
func ServeEcho(stdin io.Reader, out io.Writer, dir string, batchDelay time.Duration, pgURL string) error {
	db, err := bolt.Open(filepath.Join(dir, "baseline.db"), 0o600, nil)
	if err != nil {
		return err
	}
	defer db.Close()
	db.MaxBatchDelay = batchDelay
	bucket := []byte("b")
	if err := db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucketIfNotExists(bucket); return err }); err != nil {
		return err
	}
	var seq atomic.Uint64
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	payload := map[string]any{"id": "7d0f6b3a-58c4-4e1e-9d7e-2f1f0c9a1b2c", "status": "CREATED", "n": 1}
	e.GET("/ping", func(c echo.Context) error { return c.JSON(http.StatusOK, payload) })
	e.POST("/put", func(c echo.Context) error {
		key := make([]byte, 16)
		binary.BigEndian.PutUint64(key, uint64(time.Now().UnixNano()))
		binary.BigEndian.PutUint64(key[8:], seq.Add(1))
		val := make([]byte, BaselineValueSize)
		_, _ = rand.Read(val)
		if err := db.Batch(func(tx *bolt.Tx) error { return tx.Bucket(bucket).Put(key, val) }); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, map[string]string{"id": "ok"})
	})
	if err := fillBaseline(db, BaselineFill, BaselineValueSize); err != nil {
		return err
	}
	e.GET("/get/:n", func(c echo.Context) error {
		n, _ := strconv.Atoi(c.Param("n"))
		key := make([]byte, 8)
		binary.BigEndian.PutUint64(key, uint64(n%BaselineFill))
		var val []byte
		if err := db.View(func(tx *bolt.Tx) error {
			val = append(val, tx.Bucket(filled).Get(key)...)
			return nil
		}); err != nil {
			return err
		}
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSONCharsetUTF8, val)
	})
	var hooks atomic.Int64
	e.POST("/hook", func(c echo.Context) error {
		_, _ = io.Copy(io.Discard, c.Request().Body)
		hooks.Add(1)
		return c.NoContent(http.StatusNoContent)
	})
	// not the kit's: how many deliveries /hook received, so that a run can
	// tell that the webhooks it measured were sent
	e.GET("/hook", func(c echo.Context) error { return c.JSON(http.StatusOK, map[string]int64{"received": hooks.Load()}) })
	if pgURL != "" {
		closePG, err := postgresBaseline(e, pgURL, BaselineFill, BaselineValueSize)
		if err != nil {
			return err
		}
		defer closePG()
	}
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

var filled = []byte("filled")

// fillBaseline writes n JSON values of about size bytes under 8-byte
// sequential keys, as the kit's baseline does at start.
func fillBaseline(db *bolt.DB, n, size int) error {
	val := []byte(`{"id":"7d0f6b3a-58c4-4e1e-9d7e-2f1f0c9a1b2c","text":"` + strings.Repeat("x", max(0, size-60)) + `"}`)
	return db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(filled)
		if err != nil {
			return err
		}
		b.FillPercent = 1
		for i := range n {
			key := make([]byte, 8)
			binary.BigEndian.PutUint64(key, uint64(i))
			if err := b.Put(key, val); err != nil {
				return err
			}
		}
		return nil
	})
}

// echoPhase measures the bare echo baseline served by its own process.
func echoPhase(client *http.Client, addr string) phase {
	url := "http://" + addr + "/ping"
	return phase{name: nameEcho, op: httpOp(client, http.StatusOK, func(int) (*http.Request, error) {
		return http.NewRequest(http.MethodGet, url, nil)
	}, nil), wrk: &wrkRequest{method: http.MethodGet, url: url}}
}

// putPhase measures the raw bbolt baseline served by the same process.
func putPhase(client *http.Client, addr string) phase {
	url := "http://" + addr + "/put"
	return phase{name: fmt.Sprintf("%s (%d B)", nameRaw, BaselineValueSize), op: httpOp(client, http.StatusOK, func(int) (*http.Request, error) {
		return http.NewRequest(http.MethodPost, url, nil)
	}, nil), wrk: &wrkRequest{method: http.MethodPost, url: url}}
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
