package webhooks_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	"contracts/signflow"
	"contracts/webhooks"
)

// verifySpec checks X-<Name>-Signature as the spec words it: "sha256="
// followed by the lowercase hex of HMAC-SHA256(raw body, webhook secret),
// compared in constant time; an absent header is "" and fails.
func verifySpec(secret string, raw []byte, header string) bool {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(raw)
	want := "sha256=" + hex.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(header), []byte(want))
}

// verifyV2 checks X-<Name>-Signature-V2 "t=<unix>,v1=<hex>" where hex is
// HMAC-SHA256 of "<t>.<raw body>", and returns t.
func verifyV2(secret string, raw []byte, header string) (int64, bool) {
	var ts, sig string
	for _, part := range strings.Split(header, ",") {
		k, v, _ := strings.Cut(part, "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			sig = v
		}
	}
	t, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return 0, false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "." + string(raw)))
	return t, hmac.Equal([]byte(sig), []byte(hex.EncodeToString(mac.Sum(nil))))
}

func TestSignedDelivery(t *testing.T) {
	for _, name := range []string{"", "Acme"} {
		t.Run("name="+name, func(t *testing.T) {
			h := newHarness(t)
			rcv := newReceiver(t, answer(204))
			app := h.app(rcv.URL)
			h.start(webhooks.Options{Name: name})
			c := h.contract(app)
			d := h.waitStatus(h.only(c.ID).ID, signflow.DeliveryDelivered)

			prefix := "X-" + name + "-"
			if name == "" {
				prefix = "X-Contracts-"
			}
			got := rcv.got()
			if len(got) != 1 {
				t.Fatalf("%d requests, want 1", len(got))
			}
			r := got[0]
			if r.header.Get(prefix+"Event") != signflow.EventCreated || r.header.Get(prefix+"Delivery") != d.ID {
				t.Errorf("event %q delivery %q, want %s %s", r.header.Get(prefix+"Event"), r.header.Get(prefix+"Delivery"), signflow.EventCreated, d.ID)
			}
			if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
			if string(r.body) != string(d.Body) {
				t.Errorf("sent body %s, outbox body %s", r.body, d.Body)
			}
			if !verifySpec(app.WebhookSecret, r.body, r.header.Get(prefix+"Signature")) {
				t.Errorf("signature %q does not verify", r.header.Get(prefix+"Signature"))
			}
			ts, ok := verifyV2(app.WebhookSecret, r.body, r.header.Get(prefix+"Signature-V2"))
			if !ok {
				t.Errorf("signature v2 %q does not verify", r.header.Get(prefix+"Signature-V2"))
			}
			if want := h.clock.Now().Unix(); ts != want || r.header.Get(prefix+"Timestamp") != strconv.FormatInt(want, 10) {
				t.Errorf("v2 t=%d, timestamp %q, want %d", ts, r.header.Get(prefix+"Timestamp"), want)
			}
			// The checks can fail: another body, another secret, no header.
			tampered := append([]byte(nil), r.body...)
			tampered[len(tampered)-2] ^= 1
			if verifySpec(app.WebhookSecret, tampered, r.header.Get(prefix+"Signature")) ||
				verifySpec("whsec_other", r.body, r.header.Get(prefix+"Signature")) || verifySpec(app.WebhookSecret, r.body, "") {
				t.Error("signature verified for a changed body, another secret or an absent header")
			}
			if _, ok := verifyV2(app.WebhookSecret, tampered, r.header.Get(prefix+"Signature-V2")); ok {
				t.Error("signature v2 verified for a changed body")
			}
			if len(d.Attempts) != 1 || d.Attempts[0].StatusCode != 204 || d.Attempts[0].Error != "" || !d.Attempts[0].At.Equal(h.clock.Now()) {
				t.Errorf("log %+v, want one 204 attempt at %v", d.Attempts, h.clock.Now())
			}
		})
	}
}

// The exported helpers produce what the independent checks accept.
func TestSignatureHelpers(t *testing.T) {
	raw := []byte(`{"event":"CONTRACT_CREATED"}`)
	if !verifySpec("s3cret", raw, webhooks.Signature([]byte("s3cret"), raw)) {
		t.Error("Signature does not verify")
	}
	if ts, ok := verifyV2("s3cret", raw, webhooks.SignatureV2([]byte("s3cret"), raw, 1795338000)); !ok || ts != 1795338000 {
		t.Errorf("SignatureV2: t=%d ok=%v", ts, ok)
	}
}
