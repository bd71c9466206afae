package sms_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"contracts/signflow/sms"
	"contracts/signflow/sms/smstest"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/rs/zerolog"
)

func newPlayMobile(f *smstest.PlayMobile, password string) (*sms.PlayMobile, *prometheus.CounterVec, *waits, *logBuf) {
	sends := sms.NewSendCounter(prometheus.NewRegistry())
	var log logBuf
	p := sms.NewPlayMobile(sms.PlayMobileConfig{BaseURL: f.URL, Login: "shop", Password: password, Originator: "3700",
		Timeout: 2 * time.Second}, zerolog.New(&log), sends)
	w := &waits{}
	p.Sleep = w.sleep
	return p, sends, w, &log
}

func TestPlayMobileEnvelopeHasAUniqueMessageID(t *testing.T) {
	f := smstest.NewPlayMobile(t, "shop", "pw")
	p, sends, w, _ := newPlayMobile(f, "pw")
	f.Lock()
	f.Fail5xx = 1
	f.Unlock()
	for _, text := range []string{"Kod 11111", "Kod 22222"} {
		if err := p.Send(context.Background(), "+998901234567", text); err != nil {
			t.Fatal(err)
		}
	}
	f.Lock()
	defer f.Unlock()
	if len(f.Sent) != 2 || f.Sent[0].MessageID == f.Sent[1].MessageID {
		t.Fatalf("sent %+v: want two texts with distinct message-ids", f.Sent)
	}
	want := smstest.PlayMobileSent{Recipient: "998901234567", MessageID: f.Sent[0].MessageID, Originator: "3700", Text: "Kod 11111"}
	if f.Sent[0] != want {
		t.Fatalf("sent %+v, want %+v", f.Sent[0], want)
	}
	if !reflect.DeepEqual(w.d, []time.Duration{time.Second}) || counts(sends, "playmobile") != [3]float64{2, 0, 1} {
		t.Fatalf("waits %v counts %v", w.d, counts(sends, "playmobile"))
	}
}

func TestPlayMobile400IsLoggedWithTheBrokersError(t *testing.T) {
	f := smstest.NewPlayMobile(t, "shop", "pw")
	p, sends, w, log := newPlayMobile(f, "pw")
	err := p.Send(context.Background(), "99890", "Kod 55555")
	if !sms.IsRefused(err) || !strings.Contains(err.Error(), "103 Invalid recipient") {
		t.Fatalf("400: %v", err)
	}
	if len(w.d) != 0 || counts(sends, "playmobile") != [3]float64{0, 1, 0} {
		t.Fatalf("waits %v counts %v: a 400 is not retried", w.d, counts(sends, "playmobile"))
	}
	if out := log.String(); !strings.Contains(out, "Invalid recipient") || strings.Contains(out, "55555") {
		t.Fatalf("log %s", out)
	}
	bad, _, _, _ := newPlayMobile(f, "wrong")
	if err := bad.Send(context.Background(), "998901234567", "x"); !sms.IsRefused(err) {
		t.Fatalf("wrong password: %v", err)
	}
}
