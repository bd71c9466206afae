package signflow

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Fetch hands back the status and at most limit bytes of the body, and the
// sending's error (a time-out stays one) when there is no answer.
func TestFetch(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" {
			<-r.Context().Done()
			return
		}
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte(strings.Repeat("x", 100)))
	}))
	defer srv.Close()

	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/", nil)
	status, body, err := Fetch(srv.Client(), req, 10)
	if err != nil || status != http.StatusTeapot || string(body) != strings.Repeat("x", 10) {
		t.Fatalf("Fetch = %d, %q, %v; want 418, 10 bytes, nil", status, body, err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/slow", nil)
	status, body, err = Fetch(srv.Client(), req, 10)
	if !errors.Is(err, context.DeadlineExceeded) || status != 0 || body != nil {
		t.Fatalf("Fetch of a silent server = %d, %q, %v; want 0, nil, deadline exceeded", status, body, err)
	}
}
