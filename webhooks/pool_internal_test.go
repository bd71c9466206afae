package webhooks

import (
	"net/http"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// The defaults are the spec's: a 10-second time-out per attempt and the
// X-Contracts-* headers; tests elsewhere shorten the time-out.
func TestDefaults(t *testing.T) {
	reg := prometheus.NewRegistry()
	p, err := New(nil, nil, reg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.client.Timeout != 10*time.Second {
		t.Errorf("attempt time-out %v, want 10s", p.client.Timeout)
	}
	if p.client.CheckRedirect(nil, nil) != http.ErrUseLastResponse {
		t.Error("redirects are followed")
	}
	want := headerNames{"X-Contracts-Event", "X-Contracts-Delivery", "X-Contracts-Signature", "X-Contracts-Timestamp", "X-Contracts-Signature-V2"}
	if p.headers != want {
		t.Errorf("headers %+v, want %+v", p.headers, want)
	}
	if p.opt.Workers != DefaultWorkers || p.opt.Clock == nil {
		t.Errorf("workers %d clock %v", p.opt.Workers, p.opt.Clock)
	}
	// A claimed row waits behind at most four rows per worker, each at most
	// one time-out long: the lease must outlast that and the log write.
	if p.opt.Lease != time.Minute || p.opt.Lease <= inFlightPerWorker*p.opt.AttemptTimeout+p.opt.AttemptTimeout {
		t.Errorf("lease %v, want a minute, more than %d attempts' time", p.opt.Lease, inFlightPerWorker+1)
	}
	if _, err := New(nil, nil, reg, Options{}); err == nil {
		t.Error("registering the metrics twice succeeded")
	}
}
