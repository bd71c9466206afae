package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/cookiejar"
	"regexp"
	"strings"
	"testing"
	"time"

	"contracts/internal/appliance"
	"contracts/signflow/sms/smstest"
)

// TestServeEskizWrongCredentialsIsAWarning: Eskiz refuses the login at
// start; the appliance starts and /readyz says why.
func TestServeEskizWrongCredentialsIsAWarning(t *testing.T) {
	eskiz := smstest.NewEskiz(t, "shop@example.uz", "s3cret")
	dir := t.TempDir()
	env := []string{"CONTRACTS_ADMIN__LISTEN=127.0.0.1:0", "CONTRACTS_SMS__PROVIDER=eskiz", "CONTRACTS_SMS__ESKIZ__BASEURL=" + eskiz.URL,
		"CONTRACTS_SMS__ESKIZ__EMAIL=shop@example.uz", "CONTRACTS_SMS__ESKIZ__PASSWORD=wrong"}
	p := run(t, dir, env, "serve", "--embedded-listen", "127.0.0.1:0", "--key-listen", "127.0.0.1:0")
	admin := "http://" + p.listening(t)["admin"]
	var ready struct {
		Status   string
		Warnings []string
	}
	status, body := httpCall(t, "GET", admin+"/readyz", "", "", "")
	if json.Unmarshal([]byte(body), &ready); status != 200 || ready.Status != "ready" || len(ready.Warnings) != 1 ||
		!strings.Contains(ready.Warnings[0], "Eskiz refused sms.eskiz.email and sms.eskiz.password") ||
		!strings.Contains(ready.Warnings[0], "Invalid credentials") || strings.Contains(body, "wrong") {
		t.Fatalf("/readyz: %d %s", status, body)
	}
}

// TestServeEskizSendsTheTextsOfTheTable: a cabinet login code goes out
// through Eskiz in the page's language (a replacement of another language
// leaves it alone), on the token of the login at start, and is counted.
func TestServeEskizSendsTheTextsOfTheTable(t *testing.T) {
	eskiz := smstest.NewEskiz(t, "shop@example.uz", "s3cret")
	dir := t.TempDir()
	env := []string{"CONTRACTS_SMS__PROVIDER=eskiz", "CONTRACTS_SMS__ESKIZ__BASEURL=" + eskiz.URL,
		"CONTRACTS_SMS__ESKIZ__EMAIL=shop@example.uz", "CONTRACTS_SMS__ESKIZ__PASSWORD=s3cret",
		"CONTRACTS_SMS__TEXTS__CABINETCODE__EN=Shop cabinet code {code}"}
	p := run(t, dir, env, "serve", "--demo", "--embedded-listen", "127.0.0.1:0", "--key-listen", "127.0.0.1:0", "--admin-listen", "127.0.0.1:0")
	addrs := p.listening(t)
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	sendCode := func(lang string) {
		t.Helper()
		resp, err := client.Get("http://" + addrs["key"] + "/cabinet?lang=" + lang)
		if err != nil {
			t.Fatal(err)
		}
		page := readAll(t, resp)
		m := cabinetConfigRE.FindStringSubmatch(page)
		var cfg struct{ CSRF string }
		if m == nil || json.Unmarshal([]byte(m[1]), &cfg) != nil || cfg.CSRF == "" {
			t.Fatalf("cabinet page without its CSRF token: %d", resp.StatusCode)
		}
		req, _ := http.NewRequest("POST", "http://"+addrs["key"]+"/cabinet/api/login/code", strings.NewReader(`{"number":"`+appliance.DemoCustomerIN+`"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-CSRF-Token", cfg.CSRF)
		resp, err = client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if body := readAll(t, resp); resp.StatusCode != 200 {
			t.Fatalf("login code (%s): %d %s", lang, resp.StatusCode, body)
		}
	}
	sendCode("ru")
	waitFor(t, func() bool { eskiz.Lock(); defer eskiz.Unlock(); return len(eskiz.Sent) == 1 })
	eskiz.Lock()
	sent, logins := eskiz.Sent, eskiz.Logins
	eskiz.Unlock()
	ru := regexp.MustCompile(`^Код для входа в кабинет: \d{5}\. Никому не сообщайте его\.$`)
	if sent[0].Phone != "998901234567" || !ru.MatchString(sent[0].Message) || sent[0].From != "4546" {
		t.Fatalf("Eskiz got %+v", sent)
	}
	if logins != 1 {
		t.Fatalf("%d logins, want the one at start", logins)
	}
	// The fake records the text when it arrives; the appliance counts the
	// send once it has read the answer, a moment later.
	var metrics string
	counted := func() bool {
		_, metrics = httpCall(t, "GET", "http://"+addrs["admin"]+"/metrics", "", "", "")
		return strings.Contains(metrics, `contracts_sms_sends_total{provider="eskiz",result="sent"} 1`)
	}
	for deadline := time.Now().Add(10 * time.Second); !counted(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("/metrics lacks the send:\n%s", grepLines(metrics, "contracts_sms"))
		}
	}
}

func grepLines(text, part string) string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, part) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func readAll(t *testing.T, resp *http.Response) string {
	t.Helper()
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// waitFor polls for the background queue's send, for at most ten seconds.
func waitFor(t *testing.T, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !done(); {
		if time.Now().After(deadline) {
			t.Fatal("the text was not sent within 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
