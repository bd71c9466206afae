package sms_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"contracts/signflow"
	"contracts/signflow/sms"
	"contracts/signflow/sms/smstest"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/rs/zerolog"
)

// waits records the back-off instead of sleeping it.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(_ context.Context, d time.Duration) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.d = append(w.d, d)
	return nil
}

func newEskiz(t *testing.T, f *smstest.Eskiz, password string) (*sms.Eskiz, *prometheus.CounterVec, *waits, *logBuf) {
	t.Helper()
	sends := sms.NewSendCounter(prometheus.NewRegistry())
	var log logBuf
	e := sms.NewEskiz(sms.EskizConfig{BaseURL: f.URL, Email: "shop@example.uz", Password: password, From: "4546",
		CallbackURL: "https://contracts.example.uz/sms/status", Timeout: 2 * time.Second}, zerolog.New(&log), sends)
	w := &waits{}
	e.Sleep = w.sleep
	return e, sends, w, &log
}

// counts reads sent, failed and retried.
func counts(sends *prometheus.CounterVec, provider string) (out [3]float64) {
	for i, result := range []string{"sent", "failed", "retried"} {
		var m dto.Metric
		sends.WithLabelValues(provider, result).Write(&m)
		out[i] = m.GetCounter().GetValue()
	}
	return out
}

func TestEskizLogsInOnceAndReusesTheToken(t *testing.T) {
	f := smstest.NewEskiz(t, "shop@example.uz", "s3cret")
	e, sends, _, _ := newEskiz(t, f, "s3cret")
	for _, phone := range []string{"+998 90 123 45 67", "+998901234568", "998901234569"} {
		if err := e.Send(context.Background(), phone, "Kod 12345"); err != nil {
			t.Fatal(err)
		}
	}
	f.Lock()
	defer f.Unlock()
	if f.Logins != 1 || f.Refreshes != 0 || len(f.Sent) != 3 {
		t.Fatalf("logins %d refreshes %d sent %d, want 1 0 3", f.Logins, f.Refreshes, len(f.Sent))
	}
	want := smstest.EskizSent{Phone: "998901234567", Message: "Kod 12345", From: "4546", CallbackURL: "https://contracts.example.uz/sms/status"}
	if f.Sent[0] != want {
		t.Fatalf("sent %+v, want %+v", f.Sent[0], want)
	}
	if got := counts(sends, "eskiz"); got != [3]float64{3, 0, 0} {
		t.Fatalf("sent/failed/retried = %v", got)
	}
}

func TestEskizRefreshesOn401AndSendsOnceMore(t *testing.T) {
	f := smstest.NewEskiz(t, "shop@example.uz", "s3cret")
	e, sends, w, _ := newEskiz(t, f, "s3cret")
	if err := e.Send(context.Background(), "998901234567", "one"); err != nil {
		t.Fatal(err)
	}
	f.Expire()
	if err := e.Send(context.Background(), "998901234567", "two"); err != nil {
		t.Fatal(err)
	}
	if err := e.Send(context.Background(), "998901234567", "three"); err != nil {
		t.Fatal(err)
	}
	f.Lock()
	defer f.Unlock()
	if f.Logins != 1 || f.Refreshes != 1 || len(f.Sent) != 3 || f.Sent[1].Message != "two" {
		t.Fatalf("logins %d refreshes %d sent %+v", f.Logins, f.Refreshes, f.Sent)
	}
	if len(w.d) != 0 || counts(sends, "eskiz") != [3]float64{3, 0, 0} {
		t.Fatalf("waits %v counts %v: a 401 is not a retry", w.d, counts(sends, "eskiz"))
	}
}

func TestEskizLogsInAgainWhenRefreshIsRefused(t *testing.T) {
	f := smstest.NewEskiz(t, "shop@example.uz", "s3cret")
	e, _, _, _ := newEskiz(t, f, "s3cret")
	if err := e.Send(context.Background(), "998901234567", "one"); err != nil {
		t.Fatal(err)
	}
	f.Revoke()
	if err := e.Send(context.Background(), "998901234567", "two"); err != nil {
		t.Fatal(err)
	}
	f.Lock()
	defer f.Unlock()
	if f.Logins != 2 || f.Refreshes != 1 || len(f.Sent) != 2 {
		t.Fatalf("logins %d refreshes %d sent %d, want 2 1 2", f.Logins, f.Refreshes, len(f.Sent))
	}
}

func TestEskizRetries5xxWithBackoff(t *testing.T) {
	f := smstest.NewEskiz(t, "shop@example.uz", "s3cret")
	e, sends, w, _ := newEskiz(t, f, "s3cret")
	f.Lock()
	f.Fail5xx = 2
	f.Unlock()
	if err := e.Send(context.Background(), "998901234567", "x"); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(w.d, []time.Duration{time.Second, 2 * time.Second}) {
		t.Fatalf("waits %v, want 1s 2s", w.d)
	}
	if got := counts(sends, "eskiz"); got != [3]float64{1, 0, 2} {
		t.Fatalf("sent/failed/retried = %v, want 1 0 2", got)
	}
	f.Lock()
	f.Fail5xx = 10
	f.Unlock()
	w.d = nil
	if err := e.Send(context.Background(), "998901234567", "y"); signflow.ErrorCode(err) != signflow.EUNAVAILABLE {
		t.Fatalf("always 500: %v", err)
	}
	if !reflect.DeepEqual(w.d, []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}) {
		t.Fatalf("waits %v, want 1s 2s 4s and no more", w.d)
	}
	if got := counts(sends, "eskiz"); got != [3]float64{1, 1, 5} {
		t.Fatalf("sent/failed/retried = %v, want 1 1 5", got)
	}
}

func TestEskiz400IsNotRetriedAndLogsEskizsMessage(t *testing.T) {
	f := smstest.NewEskiz(t, "shop@example.uz", "s3cret")
	e, sends, w, log := newEskiz(t, f, "s3cret")
	f.Lock()
	f.Refuse = "This SMS text has not passed moderation"
	f.Unlock()
	err := e.Send(context.Background(), "998901234567", "Kod 81723 secret")
	if !sms.IsRefused(err) || signflow.ErrorCode(err) != signflow.EUNAVAILABLE {
		t.Fatalf("400: %v", err)
	}
	if len(w.d) != 0 || counts(sends, "eskiz") != [3]float64{0, 1, 0} {
		t.Fatalf("waits %v counts %v: a 400 is not retried", w.d, counts(sends, "eskiz"))
	}
	out := log.String()
	if !strings.Contains(out, "has not passed moderation") || strings.Contains(out, "81723") || strings.Contains(out, "901234567") {
		t.Fatalf("log %s: want Eskiz's message, neither the text nor the phone", out)
	}
}

func TestEskizTimeoutIsRetried(t *testing.T) {
	var mu sync.Mutex
	hung := false
	done := make(chan struct{})
	defer close(done)
	f := smstest.NewEskiz(t, "shop@example.uz", "s3cret")
	// A proxy in front of the fake that holds the first send past the time-out.
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		first := !hung && strings.HasSuffix(r.URL.Path, "/send")
		hung = hung || first
		mu.Unlock()
		if first {
			io.Copy(io.Discard, r.Body) // the server notices the client leave only once the body is read
			select {
			case <-r.Context().Done():
			case <-done:
			}
			return
		}
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, strings.TrimSuffix(f.URL, "/api")+r.URL.Path, r.Body)
		req.Header = r.Header.Clone()
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			w.WriteHeader(502)
			return
		}
		defer resp.Body.Close()
		w.WriteHeader(resp.StatusCode)
		buf := make([]byte, 4096)
		n, _ := resp.Body.Read(buf)
		w.Write(buf[:n])
	}))
	defer proxy.Close()
	sends := sms.NewSendCounter(prometheus.NewRegistry())
	e := sms.NewEskiz(sms.EskizConfig{BaseURL: proxy.URL + "/api", Email: "shop@example.uz", Password: "s3cret", From: "4546",
		Timeout: 300 * time.Millisecond}, zerolog.Nop(), sends)
	w := &waits{}
	e.Sleep = w.sleep
	if err := e.Send(context.Background(), "998901234567", "x"); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(w.d, []time.Duration{time.Second}) || counts(sends, "eskiz") != [3]float64{1, 0, 1} {
		t.Fatalf("waits %v counts %v", w.d, counts(sends, "eskiz"))
	}
}

func TestEskizWrongCredentialsAreARefusal(t *testing.T) {
	f := smstest.NewEskiz(t, "shop@example.uz", "s3cret")
	e, sends, w, _ := newEskiz(t, f, "wrong")
	if err := e.Login(context.Background()); !sms.IsRefused(err) || !strings.Contains(err.Error(), "Invalid credentials") {
		t.Fatalf("login: %v", err)
	}
	if err := e.Send(context.Background(), "998901234567", "x"); !sms.IsRefused(err) {
		t.Fatalf("send: %v", err)
	}
	if len(w.d) != 0 || counts(sends, "eskiz") != [3]float64{0, 1, 0} {
		t.Fatalf("waits %v counts %v", w.d, counts(sends, "eskiz"))
	}
}
