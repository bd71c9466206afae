package verify

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"contracts/server"
	"contracts/server/pdf/pades"

	"github.com/rs/zerolog"
)

// What the rest of the appliance sees under the review's fifth finding:
// 25 parallel 9.6 MB uploads took its memory from 95 to 245 MB. With
// ratelimit.verifyConcurrent 2 and a wait long enough that every upload
// is checked in turn, the live heap (sampled after a collection) grows by
// under half the 240 MB the 25 bodies alone take when read at once.
// Without the bound it grew by about 565 MB here; with it, by about 85
// (an upload being checked holds several copies of its file).
func TestUploadsHoldMemoryBounded(t *testing.T) {
	u := newUploadEnv(t)
	file := u.sealed(t, "en")
	e := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	Register(e, Deps{Service: u.w.Service, Verifier: pades.NewVerifier(u.sealer.Certificate()), SealFingerprint: sealID.Fingerprint(),
		Concurrent: 2, ConcurrentWait: time.Minute})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)

	// The sealed PDF with 9.6 MB appended after it, as one shared body.
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "contract.pdf")
	fw.Write(file)
	fw.Write(bytes.Repeat([]byte("% padding of the review's upload\n"), (9_600_000-len(file))/33))
	mw.Close()
	whole := body.Bytes()

	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapAlloc
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			runtime.GC()
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak.Load() {
				peak.Store(m.HeapAlloc)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()

	var wg sync.WaitGroup
	var ok atomic.Int32
	for range 25 {
		wg.Go(func() {
			req, _ := http.NewRequest("POST", srv.URL+"/verify", bytes.NewReader(whole))
			req.Header.Set("Content-Type", mw.FormDataContentType())
			req.Header.Set("Accept", "application/json")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 {
				t.Errorf("an upload: %d %s", resp.StatusCode, b)
				return
			}
			ok.Add(1)
		})
	}
	wg.Wait()
	close(stop)
	<-sampled
	grew := int64(peak.Load()) - int64(base)
	t.Logf("the live heap grew by %d MB while 25 uploads of %d MB were in flight", grew>>20, len(whole)>>20)
	if ok.Load() != 25 {
		t.Fatalf("%d of 25 uploads checked", ok.Load())
	}
	if grew > 120<<20 {
		t.Fatalf("the live heap grew by %d MB, want under 120 MB", grew>>20)
	}
}
