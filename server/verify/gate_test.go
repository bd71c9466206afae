package verify

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/server"
	"contracts/server/pdf/pades"

	"github.com/rs/zerolog"
)

// The review sent 25 parallel 9.6 MB uploads and memory grew by 150 MB.
// With ratelimit.verifyConcurrent 2, two uploads are read at once: while
// two hang mid-body, 25 more wait briefly and are refused with 503 and
// Retry-After, without their bodies being read; once one of the two ends,
// the next upload is checked.
func TestUploadsReadAtOnceAreBounded(t *testing.T) {
	u := newUploadEnv(t)
	file := u.sealed(t, "en")
	e := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	Register(e, Deps{Service: u.w.Service, Verifier: pades.NewVerifier(u.sealer.Certificate()), SealFingerprint: sealID.Fingerprint(),
		Concurrent: 2, ConcurrentWait: 200 * time.Millisecond})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "contract.pdf")
	fw.Write(file)
	mw.Close()
	whole := body.Bytes()
	post := func(r io.Reader) (int, string, string) {
		req, _ := http.NewRequest("POST", srv.URL+"/verify", r)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Accept", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err.Error(), ""
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header.Get("Retry-After")
	}

	// Two uploads that send half their body and hang.
	type hanging struct {
		w      *io.PipeWriter
		status chan int
	}
	var held []hanging
	// Closed before the server, which waits for them, on any way out.
	t.Cleanup(func() {
		for _, h := range held {
			h.w.CloseWithError(io.ErrClosedPipe)
		}
	})
	for range 2 {
		pr, pw := io.Pipe()
		h := hanging{pw, make(chan int, 1)}
		go func() { s, _, _ := post(pr); h.status <- s }()
		if _, err := pw.Write(whole[:len(whole)/2]); err != nil { // returns once the client has sent it
			t.Fatal(err)
		}
		held = append(held, h)
	}
	// The two are in once an upload finds no place: until then a probe is
	// checked and leaves (a busy machine may not have run their handlers yet).
	for deadline := time.Now().Add(30 * time.Second); ; {
		if status, _, _ := post(bytes.NewReader(whole)); status == 503 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the two hanging uploads never held the gate")
		}
	}

	// 25 more at once: each refused after the brief wait.
	var wg sync.WaitGroup
	var mu sync.Mutex
	refused := 0
	start := time.Now()
	for range 25 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, body, after := post(bytes.NewReader(whole))
			if status == 503 && after == "5" && strings.Contains(body, `"code":503`) {
				mu.Lock()
				refused++
				mu.Unlock()
			} else {
				t.Errorf("upload past the bound: %d %q %s", status, after, body)
			}
		}()
	}
	wg.Wait()
	if refused != 25 || time.Since(start) > 10*time.Second {
		t.Fatalf("%d of 25 refused in %s", refused, time.Since(start))
	}

	// One of the two ends: it is checked, and the next upload with it.
	held[0].w.Write(whole[len(whole)/2:])
	held[0].w.Close()
	if s := <-held[0].status; s != 200 {
		t.Fatalf("the first held upload: %d", s)
	}
	if status, body, _ := post(bytes.NewReader(whole)); status != 200 || !strings.Contains(body, `"intact":true`) {
		t.Fatalf("the next upload: %d %s", status, body)
	}
	held[1].w.Close()
	<-held[1].status
}
