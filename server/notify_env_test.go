package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/server/i18n"
	"contracts/signflow"
	"contracts/signflow/sms"

	"github.com/rs/zerolog"
)

const customerPhone = "998901234567" // the customer's phone as both tenants hold it

// notifyWorld is the standard world whose service texts through the
// background queue to an SMS gateway over HTTP, reminding twice a day apart.
func notifyWorld(t *testing.T, edit ...func(*signflow.Options)) (*fixture.Standard, *fixture.SMS, *node) {
	t.Helper()
	w := fixture.NewStandard(t)
	rec := &fixture.SMS{}
	gw := fixture.NewGateway(t, rec)
	queue := sms.NewQueue(sms.NewHTTP(gw.URL, nil, 5*time.Second), zerolog.Nop(), sms.QueueOptions{Timeout: 5 * time.Second})
	queue.Start()
	t.Cleanup(func() { queue.Shutdown(context.Background()) })
	opt := w.Options
	opt.Queue, opt.Reminders, opt.RemindEvery = queue, 2, 24*time.Hour
	for _, e := range edit {
		e(&opt)
	}
	w.Service = signflow.NewService(w.Store, opt)
	return w, rec, startNode(t, w.World)
}

func audits(t *testing.T, w *fixture.World, contractID, kind string) []*signflow.AuditEvent {
	t.Helper()
	var out []*signflow.AuditEvent
	fixture.Must(t, func() error {
		return w.Store.View(func(tx signflow.Tx) error {
			events, err := tx.AuditEvents(contractID)
			for _, e := range events {
				if e.Type == kind {
					out = append(out, e)
				}
			}
			return err
		})
	})
	return out
}

func runTimers(t *testing.T, w *fixture.World, after time.Duration) {
	t.Helper()
	w.Clock.Advance(after)
	fixture.Must(t, func() error { _, err := w.Service.RunTimers(); return err })
}

// TestNotifySigningLink: notify: SMS texts the session's url to the
// signer's phone in the session's language and answers notifiedAt; without
// it nothing is texted; another notify is 400.
func TestNotifySigningLink(t *testing.T) {
	w, texts, n := notifyWorld(t)
	app := bearer(t, n, w.AppA)
	for _, lang := range signflow.Languages {
		c := w.Contract(t)
		a := post(t, n.embedded.URL+"/v1/contracts/"+c.ID+"/sign-sessions", app, "",
			map[string]any{"signerIn": fixture.CustomerIN, "lang": lang, "notify": "SMS"})
		var s struct{ ID, URL, NotifiedAt string }
		json.Unmarshal([]byte(a.body), &s)
		if a.status != 200 || s.NotifiedAt != stamp(w.Clock.Now()) || !strings.HasPrefix(s.URL, "http://embedded.test/sign/") {
			t.Fatalf("%s: %d %s", lang, a.status, a.body)
		}
		want := i18n.SMSTexts(nil).Render(signflow.SMSSignLink, lang, map[string]string{"number": c.Number, "url": s.URL})
		if got := texts.Newest(t, customerPhone); got.Text != want {
			t.Fatalf("%s: texted %q, want %q", lang, got.Text, want)
		}
		if _, m := get(t, n.embedded.URL+"/v1/sign-sessions/"+s.ID, app); m["notifiedAt"] != s.NotifiedAt {
			t.Fatalf("%s: the session reads notifiedAt %v", lang, m["notifiedAt"])
		}
		if got := audits(t, w.World, c.ID, signflow.AuditLinkSent); len(got) != 1 || got[0].SessionID != s.ID {
			t.Fatalf("%s: link audit events %+v", lang, got)
		}
	}
	sent := texts.Count()
	c := w.Contract(t)
	a := post(t, n.embedded.URL+"/v1/contracts/"+c.ID+"/sign-sessions", app, "", map[string]any{"signerIn": fixture.CustomerIN})
	if a.status != 200 || strings.Contains(a.body, "notifiedAt") {
		t.Fatalf("without notify: %d %s", a.status, a.body)
	}
	a = post(t, n.embedded.URL+"/v1/contracts/"+c.ID+"/sign-sessions", app, "", map[string]any{"signerIn": fixture.CustomerIN, "notify": "EMAIL"})
	if a.status != 400 || !strings.Contains(a.body, "notify") {
		t.Fatalf("notify EMAIL: %d %s", a.status, a.body)
	}
	runTimers(t, w.World, time.Minute)
	if texts.Count() != sent {
		t.Fatalf("%d texts without notify", texts.Count()-sent)
	}
}

// TestNotifyCabinetInvite: notify: SMS on the key interface's create texts
// every party but the key's owner an invitation to the cabinet, in lang
// (uz by default).
func TestNotifyCabinetInvite(t *testing.T) {
	w, texts, n := notifyWorld(t)
	key := apiKeyAuth(w.KeyA)
	for _, lang := range append(signflow.Languages, "") {
		body := createBody(w)
		body["notify"], body["lang"] = "SMS", lang
		id := idOf(t, post(t, n.key.URL+"/v1/contracts", key, "", body))
		var number string
		fixture.Must(t, func() error { number = w.StoredContract(t, id).Number; return nil })
		shown := lang
		if lang == "" {
			shown = "uz"
		}
		want := i18n.SMSTexts(nil).Render(signflow.SMSCabinetInvite, shown, map[string]string{"owner": "Alpha Savdo MChJ",
			"number": number, "url": "http://key.test/cabinet?lang=" + shown})
		if got := texts.Newest(t, customerPhone); got.Text != want {
			t.Fatalf("lang %q: texted %q, want %q", lang, got.Text, want)
		}
	}
	for _, m := range texts.WaitFor(t, 4) {
		if m.Phone != customerPhone {
			t.Fatalf("the key's owner was texted: %+v", m)
		}
	}
	body := createBody(w)
	body["notify"], body["lang"] = "SMS", "de"
	if a := post(t, n.key.URL+"/v1/contracts", key, "", body); a.status != 400 || !strings.Contains(a.body, "lang") {
		t.Fatalf("lang de: %d %s", a.status, a.body)
	}
	body["notify"], body["lang"] = "PIGEON", "uz"
	if a := post(t, n.key.URL+"/v1/contracts", key, "", body); a.status != 400 || !strings.Contains(a.body, "notify") {
		t.Fatalf("notify PIGEON: %d %s", a.status, a.body)
	}
	if got := contractCount(t, w.Store); got != 4 {
		t.Fatalf("%d contracts, want 4", got)
	}
}

// TestReminders: a notified signer who has not signed is reminded twice,
// a day apart, with a fresh session link (or the cabinet's again), each
// reminder in the audit trail; none once the contract left CREATED.
func TestReminders(t *testing.T) {
	w, texts, n := notifyWorld(t)
	app, key := bearer(t, n, w.AppA), apiKeyAuth(w.KeyA)
	linked := w.Contract(t)
	a := post(t, n.embedded.URL+"/v1/contracts/"+linked.ID+"/sign-sessions", app, "",
		map[string]any{"signerIn": fixture.CustomerIN, "lang": "ru", "notify": "SMS"})
	var first struct{ URL string }
	json.Unmarshal([]byte(a.body), &first)
	texts.Newest(t, customerPhone)
	body := createBody(w)
	body["notify"], body["lang"] = "SMS", "en"
	invited := idOf(t, post(t, n.key.URL+"/v1/contracts", key, "", body))
	texts.Newest(t, customerPhone)
	stopped := w.Contract(t)
	post(t, n.embedded.URL+"/v1/contracts/"+stopped.ID+"/sign-sessions", app, "", map[string]any{"signerIn": fixture.CustomerIN, "notify": "SMS"})
	texts.Newest(t, customerPhone)
	sent := texts.Count()
	app = bearer(t, n, w.AppA)
	if a := post(t, n.embedded.URL+"/v1/contracts/"+stopped.ID+"/cancel", app, "", map[string]any{}); a.status != 200 {
		t.Fatalf("cancel: %d %s", a.status, a.body)
	}

	runTimers(t, w.World, 23*time.Hour)
	if texts.Count() != sent {
		t.Fatal("a reminder before its day")
	}
	seen := map[string]bool{first.URL: true}
	for round := 1; round <= 2; round++ {
		runTimers(t, w.World, 24*time.Hour)
		got := texts.WaitFor(t, sent+2)[sent:]
		sent += 2
		var link, cabinet string
		for _, m := range got {
			if strings.HasPrefix(m.Text, "Напоминание") {
				link = m.Text
			} else {
				cabinet = m.Text
			}
		}
		url := link[strings.Index(link, "http"):]
		if seen[url] || !strings.HasPrefix(url, "http://embedded.test/sign/") {
			t.Fatalf("round %d: the reminder's link %q is not a fresh session's", round, url)
		}
		seen[url] = true
		c := w.StoredContract(t, linked.ID)
		if want := i18n.SMSTexts(nil).Render(signflow.SMSReminder, "ru", map[string]string{"number": c.Number, "url": url}); link != want {
			t.Fatalf("round %d: %q, want %q", round, link, want)
		}
		ci := w.StoredContract(t, invited)
		if want := i18n.SMSTexts(nil).Render(signflow.SMSReminder, "en", map[string]string{"number": ci.Number,
			"url": "http://key.test/cabinet?lang=en"}); cabinet != want {
			t.Fatalf("round %d: %q, want %q", round, cabinet, want)
		}
		for _, id := range []string{linked.ID, invited} {
			if got := audits(t, w.World, id, signflow.AuditReminderSent); len(got) != round {
				t.Fatalf("round %d: %d reminders in the audit trail of %s", round, len(got), id)
			}
		}
	}
	runTimers(t, w.World, 24*time.Hour)
	runTimers(t, w.World, 24*time.Hour)
	if got := audits(t, w.World, stopped.ID, signflow.AuditReminderSent); len(got) != 0 {
		t.Fatalf("a cancelled contract's signer was reminded %d times", len(got))
	}
	for _, id := range []string{linked.ID, invited} {
		if got := audits(t, w.World, id, signflow.AuditReminderSent); len(got) != 2 {
			t.Fatalf("%d reminders of %s, want 2", len(got), id)
		}
	}
}

// TestRemindersWithinSessionCap: a reminder that would open more sessions
// for the party than sessionsPerPartyPerHour allows waits for its next
// turn, unsent and uncounted.
func TestRemindersWithinSessionCap(t *testing.T) {
	w, texts, n := notifyWorld(t, func(o *signflow.Options) {
		o.SessionsPerPartyPerHour, o.RemindEvery = 1, 40*time.Minute
	})
	app := bearer(t, n, w.AppA)
	c := w.Contract(t)
	if a := post(t, n.embedded.URL+"/v1/contracts/"+c.ID+"/sign-sessions", app, "",
		map[string]any{"signerIn": fixture.CustomerIN, "notify": "SMS"}); a.status != 200 {
		t.Fatalf("open: %d %s", a.status, a.body)
	}
	texts.Newest(t, customerPhone)
	sent := texts.Count()
	runTimers(t, w.World, 40*time.Minute) // the first session is 40 minutes old: the cap holds
	if got := audits(t, w.World, c.ID, signflow.AuditReminderSent); len(got) != 0 || texts.Count() != sent {
		t.Fatalf("a reminder past the cap: %d audit events, %d texts", len(got), texts.Count()-sent)
	}
	runTimers(t, w.World, 40*time.Minute) // 80 minutes: the hour has passed
	if got := audits(t, w.World, c.ID, signflow.AuditReminderSent); len(got) != 1 {
		t.Fatalf("%d reminders once the hour passed, want 1", len(got))
	}
	texts.WaitFor(t, sent+1)
}
