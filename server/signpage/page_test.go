package signpage_test

import (
	"encoding/json"
	"html"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"contracts/assets"
	"contracts/internal/fixture"
	"contracts/server/i18n"
	"contracts/signflow"
)

var configRE = regexp.MustCompile(`(?s)<script type="application/json" id="sign-config">(.*?)</script>`)

// config decodes the page's configuration for sign.js.
func config(t *testing.T, page string) map[string]any {
	t.Helper()
	m := configRE.FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no sign-config in the page")
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(m[1]), &v); err != nil {
		t.Fatalf("sign-config: %v", err)
	}
	return v
}

// The page in each language shows the whole contract in that language,
// with the headers docs/decisions.md asks for.
func TestPageShowsTheContract(t *testing.T) {
	e := newEnv(t, 0, "Acme")
	c := e.contract(t)
	cases := []struct {
		lang, parent string
		parts        []string
	}{
		{lang: "en", parent: "https://shop.example", parts: []string{"Sales contract", "Contract No. " + c.Number, "Seller", "Buyer", "Rahimova Dilnoza",
			"Karimov Aziz", "Address", "Toshkent, Chilonzor 7", "Warranty", "Colour: Graphite", "Smartphone Nova X", "1 pcs",
			"4\u00a0500\u00a0000.00", "4\u00a0650\u00a0000.00\u00a0UZS", "1\u00a0000\u00a0000.00\u00a0UZS", "Payment schedule", "22.01.2027",
			"3\u00a0650\u00a0000.00\u00a0UZS", "05.12.2026", "Rahimova Dilnoza and Karimov Aziz: Toshkent, Chilonzor 7", c.Hash,
			">Sign</button>", ">Reject</button>", ">Confirm</button>", ">Resend code</button>", ">Continue</button>", `<label for="sms-code">SMS code</label>`}},
		{lang: "ru", parts: []string{"Договор купли-продажи", "Договор № " + c.Number, "Продавец", "Покупатель", "Адрес", "Гарантия", "Цвет: Graphite",
			"2 шт.", "График платежей", "Rahimova Dilnoza и Karimov Aziz", ">Подписать</button>", ">Отклонить</button>", ">Подтвердить</button>",
			">Отправить код повторно</button>", "Код из SMS"}},
		{lang: "uz", parts: []string{"Oldi-sotdi shartnomasi", "Shartnoma № " + c.Number, "Sotuvchi", "Xaridor", "Manzil", "Kafolat", "Rang: Graphite",
			"2 dona", "Toʻlov jadvali", "Rahimova Dilnoza va Karimov Aziz", ">Imzolash</button>", ">Rad etish</button>", ">Tasdiqlash</button>",
			">Kodni qayta yuborish</button>", "SMS kod"}},
	}
	for _, tc := range cases {
		t.Run(tc.lang, func(t *testing.T) {
			redirect := ""
			if tc.lang == "en" {
				redirect = "https://shop.example/thanks?order=1"
			}
			sess, url := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: tc.lang, ParentOrigin: tc.parent, RedirectURL: redirect})
			r := e.do(t, "GET", url, "")
			if r.Status != 200 || r.Header.Get("Content-Type") != "text/html; charset=UTF-8" {
				t.Fatalf("%d %s", r.Status, r.Header.Get("Content-Type"))
			}
			want := "frame-ancestors *"
			if tc.parent != "" {
				want = "frame-ancestors " + tc.parent
			}
			if csp := r.Header.Values("Content-Security-Policy"); len(csp) != 2 || csp[0] != want || !strings.Contains(csp[1], "script-src 'self'") {
				t.Fatalf("CSP %q, want first %q", csp, want)
			}
			if r.Header.Get("Cache-Control") != "no-store" || r.Header.Get("Referrer-Policy") != "no-referrer" || r.Header.Get("X-Frame-Options") != "" {
				t.Fatalf("headers %v", r.Header)
			}
			page := html.UnescapeString(r.Body)
			if !strings.Contains(page, `<html lang="`+tc.lang+`">`) {
				t.Fatalf("html lang not %s", tc.lang)
			}
			for _, p := range tc.parts {
				if !strings.Contains(page, p) {
					t.Errorf("page lacks %q", p)
				}
			}
			cfg := config(t, r.Body)
			if cfg["source"] != "acme-sdk" || cfg["method"] != signflow.MethodOTP || cfg["sessionId"] != sess.ID || cfg["contractId"] != c.ID ||
				cfg["error"] != nil || (tc.parent != "" && cfg["parentOrigin"] != tc.parent) || cfg["redirectUrl"] != nilIfEmpty(redirect) {
				t.Fatalf("config %v", cfg)
			}
		})
	}
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// A page that cannot sign still loads its script and says why: unknown
// token 404 (frame-ancestors *), expired or used session 403 (framed only
// by its parentOrigin); the ERROR message holds no data.
func TestPageRefusals(t *testing.T) {
	e := newEnv(t, 0, "")
	c := e.contract(t)
	_, expired := e.open(t, c.ID, signflow.SessionRequest{SignerIN: fixture.CustomerIN, Lang: "ru", ParentOrigin: "https://shop.example"})
	e.Clock.Advance(31 * time.Minute)
	cases := []struct {
		url, accept  string
		status       int
		message, csp string
		parts        []string
	}{
		{url: e.base + "/sign/nope", accept: "en-GB,en;q=0.9", status: 404, message: "session not found", csp: "frame-ancestors *", parts: []string{`lang="en"`, "Signing link not found"}},
		{url: e.base + "/sign/nope?lang=ru", status: 404, message: "session not found", csp: "frame-ancestors *", parts: []string{`lang="ru"`, "Ссылка для подписи не найдена"}},
		{url: e.base + "/sign/nope", status: 404, message: "session not found", csp: "frame-ancestors *", parts: []string{`lang="uz"`}},
		{url: expired, accept: "en", status: 403, message: "session expired", csp: "frame-ancestors https://shop.example", parts: []string{`lang="ru"`, "Срок действия ссылки истёк"}},
	}
	for _, tc := range cases {
		r := e.do(t, "GET", tc.url, "", "Accept-Language", tc.accept)
		if r.Status != tc.status || r.Header.Get("Content-Security-Policy") != tc.csp {
			t.Fatalf("%s: %d %q", tc.url, r.Status, r.Header.Get("Content-Security-Policy"))
		}
		if !strings.Contains(r.Body, `<script src="assets/sign.js?v=`) {
			t.Fatalf("%s: the page does not load its script", tc.url)
		}
		for _, p := range tc.parts {
			if !strings.Contains(html.UnescapeString(r.Body), p) {
				t.Fatalf("%s: lacks %q", tc.url, p)
			}
		}
		cfg := config(t, r.Body)
		if cfg["error"] != tc.message || cfg["contractId"] != nil || cfg["sessionId"] != nil || strings.Contains(r.Body, c.Number) {
			t.Fatalf("%s: config %v", tc.url, cfg)
		}
	}
}

// /sdk.js and the page's files: JavaScript and CSS types, caching with an
// ETag, the source filled in; unknown files are 404.
func TestStaticFiles(t *testing.T) {
	e := newEnv(t, 0, "Acme")
	r := e.do(t, "GET", e.base+"/sdk.js", "")
	if r.Status != 200 || r.Header.Get("Content-Type") != "text/javascript; charset=utf-8" || r.Header.Get("Cache-Control") != "public, max-age=3600" ||
		!strings.Contains(r.Body, `var SOURCE = "acme-sdk";`) || strings.Contains(r.Body, "__SOURCE__") || !strings.Contains(r.Body, "allow = 'camera; local-network-access; loopback-network'") {
		t.Fatalf("sdk.js: %d %v", r.Status, r.Header)
	}
	if again := e.do(t, "GET", e.base+"/sdk.js", "", "If-None-Match", r.Header.Get("ETag")); again.Status != 304 {
		t.Fatalf("sdk.js revalidation: %d", again.Status)
	}
	for name, ctype := range map[string]string{"sign.js": "text/javascript; charset=utf-8", "sign.css": "text/css; charset=utf-8"} {
		if r := e.do(t, "GET", e.base+"/sign/assets/"+name, ""); r.Status != 200 || r.Header.Get("Content-Type") != ctype || r.Header.Get("ETag") == "" {
			t.Fatalf("%s: %d %v", name, r.Status, r.Header)
		}
	}
	if r := e.do(t, "GET", e.base+"/sign/assets/page.html", ""); r.Status != 404 {
		t.Fatalf("page.html is served raw: %d", r.Status)
	}
}

// Every key the page, its scripts and its Go code use is defined in each
// language (the files themselves are checked whole by server/i18n).
func TestEveryStringTranslated(t *testing.T) {
	dict := i18n.Sign["en"]
	used := regexp.MustCompile(`\$?\.T\.(\w+)|fmt\('([\w.]*\w)'[,)]`) // not the prefixes of dynamic keys
	checked := map[string]bool{}
	files := map[string][]byte{"common.js": assets.CommonJS}
	for _, name := range []string{"sign/page.html", "sign/steps.html", "sign/sign.js", "sign/idp.html"} {
		files[name], _ = fs.ReadFile(assets.Sign, name)
	}
	for name, src := range files {
		for _, m := range used.FindAllStringSubmatch(string(src), -1) {
			key := m[1] + m[2]
			if checked[key] = true; dict[key] == "" {
				t.Errorf("%s uses %q, which assets/i18n lacks", name, key)
			}
		}
	}
	// Keys the Go side fills in: t["key"], t.F("key", ...), t.Or("key", ...) and the callback's texts.
	goKeys := regexp.MustCompile(`\bt\["([\w.]*\w)"\]|\bt\.(?:F|Or)\("([\w.]*\w)"|"(err\.[\w.]+|\w+Text)",?$`)
	for _, name := range []string{"page.go", "identity.go"} {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(src), "\n") {
			for _, m := range goKeys.FindAllStringSubmatch(strings.TrimSpace(line), -1) {
				key := m[1] + m[2] + m[3]
				if checked[key] = true; dict[key] == "" {
					t.Errorf("%s uses %q, which assets/i18n lacks", name, key)
				}
			}
		}
	}
	for _, key := range []string{"reviewIdentityText", "idpWaitTitle", "idpSignedText", "err.identityMismatch", "expiredText", "err.wrongCode"} {
		if !checked[key] {
			t.Errorf("the pattern missed %q", key)
		}
	}
	if len(checked) < 40 {
		t.Fatalf("only %d keys found in use: the pattern is broken", len(checked))
	}
}
