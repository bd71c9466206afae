package loadgen

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"contracts/internal/testtools"
)

func TestParseWrk(t *testing.T) {
	out := `Running 5s test @ http://127.0.0.1:1234/ping
  2 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   812.00us    1.20ms  30.00ms   90.00%
  Latency Distribution
     50%  512.00us
     75%    0.90ms
     90%    1.50ms
     99%    5.25ms
  250000 requests in 5.00s, 40.00MB read
  Socket errors: connect 0, read 3, write 0, timeout 2
  Non-2xx or 3xx responses: 10
Requests/sec:  50000.00
`
	r, err := parseWrk(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Requests != 249985 || r.Errors != 15 || r.Elapsed != 5*time.Second || r.P50 != 512*time.Microsecond || r.P99 != 5250*time.Microsecond {
		t.Fatalf("%+v", r)
	}
	if _, err := parseWrk("unable to connect to 127.0.0.1:1 Connection refused\n"); err == nil {
		t.Fatal("a failed run parsed")
	}
}

// With wrk, a pair is driven as ratio.sh drives it: each side twice, the
// whole duration each time, the body and header sent.
func TestWrkPairDrivesBothSides(t *testing.T) {
	bin := testtools.Need(t, "wrk")[0]
	var gets, posts, badPosts atomic.Int64
	get := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { gets.Add(1) }))
	defer get.Close()
	post := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.Method != "POST" || string(body) != `{"a":"]]"}` || r.Header.Get("Authorization") != "Bearer x" {
			badPosts.Add(1)
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		posts.Add(1)
	}))
	defer post.Close()
	cfg := Config{Clients: 4, Duration: time.Second, Wrk: bin}
	a := phase{name: "post", wrk: &wrkRequest{method: "POST", url: post.URL + "/", header: "Authorization: Bearer x", body: []byte(`{"a":"]]"}`)}}
	b := phase{name: "get", wrk: &wrkRequest{method: "GET", url: get.URL + "/"}}
	ra, rb := wrkPair(context.Background(), cfg, a, b, nil, nil)
	if ra.Errors != 0 || rb.Errors != 0 || badPosts.Load() != 0 {
		t.Fatalf("errors: %+v %+v, %d bad posts", ra, rb, badPosts.Load())
	}
	if ra.Requests == 0 || rb.Requests == 0 || ra.Elapsed < 2*time.Second || rb.Elapsed < 2*time.Second {
		t.Fatalf("post %+v, get %+v: want both driven twice for a second", ra, rb)
	}
	if int64(ra.Requests) > posts.Load() || int64(rb.Requests) > gets.Load() {
		t.Fatalf("wrk counted %d/%d, the servers saw %d/%d", ra.Requests, rb.Requests, posts.Load(), gets.Load())
	}
}
