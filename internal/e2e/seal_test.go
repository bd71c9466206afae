package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"contracts/internal/testtools"
	"contracts/internal/tsatest"
	"contracts/server/pdf/pades"
	"contracts/signflow/eimzo/eimzotest"
)

var langs = []string{"uz", "ru", "en"}

// TestServeSealedContracts: a contract signed with E-IMZO and an SMS code
// is downloaded through the embedded interface, the key interface and the
// cabinet in each language: the same sealed bytes on every route, which
// pdfsig calls valid over the whole file with the generated seal, with
// audit.json and the E-IMZO signer's PKCS #7 attached; the same bytes
// again after a restart; and POST /verify tells it, and every kind of bad
// file, apart without a 5xx.
func TestServeSealedContracts(t *testing.T) {
	ez := eimzotest.New(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	env := []string{"CONTRACTS_EIMZO__VERIFYURL=" + ez.URL, "CONTRACTS_RATELIMIT__OTPPERMINUTE=0"}
	in := startInstance(t, dir, data, env...)
	p := provision(t, in, "")
	id := createContract(t, in, p)
	p7 := signBoth(t, in, p, id)
	cabinet := cabinetLogin(t, in)

	for _, name := range []string{pades.CertName, pades.KeyName} {
		if st, err := os.Stat(filepath.Join(data, name)); err != nil || st.Mode().Perm() != 0o600 {
			t.Fatalf("%s: %v %v, want a file of mode 0600", name, st, err)
		}
	}
	seal := dataSeal(t, data)
	if cn := seal.Certificate().Subject.CommonName; cn != "Contracts document seal" {
		t.Fatalf("generated seal %q", cn)
	}
	var c struct {
		ID, Number, Status string
		Version            int64
	}
	mustCall(t, "GET", in.embedded+"/v1/contracts/"+id, nil, &c, "Authorization", "Bearer "+p.token)
	if c.Status != "ACTIVE" || c.Version != 3 {
		t.Fatalf("contract %+v", c)
	}

	sealed := map[string][]byte{}
	for _, lang := range langs {
		doc := mustPDF(t, in, p, cabinet, viaEmbedded, id, lang)
		for _, route := range []string{viaKey, viaCabinet} {
			if other := mustPDF(t, in, p, cabinet, route, id, lang); !bytes.Equal(other, doc) {
				t.Fatalf("%s: the %s route serves other bytes than the embedded one", lang, route)
			}
		}
		mustSealValid(t, doc, "Contracts document seal")
		list := attachments(t, doc)
		if !strings.Contains(list, "audit.json") || !strings.Contains(list, loadOwnerIN+".p7s") || strings.Contains(list, loadCustomerIN+".p7s") {
			t.Fatalf("%s: attachments:\n%s", lang, list)
		}
		flipped := bytes.Clone(doc)
		flipped[len(flipped)/2] ^= 0x01
		if out := pdfsig(t, flipped); strings.Contains(out, "Signature is Valid") {
			t.Fatalf("%s: pdfsig on a file with one byte changed:\n%s", lang, out)
		}
		sealed[lang] = doc
	}
	// The owner's PKCS #7 is the one the E-IMZO server time-stamped.
	stamped := ez.Requests()
	if got := extract(t, sealed["en"], loadOwnerIN+".p7s"); base64.StdEncoding.EncodeToString(got) != stamped[len(stamped)-1].Body ||
		stamped[len(stamped)-1].Body == p7 {
		t.Fatal("the attached PKCS #7 is not the signature the E-IMZO server verified")
	}
	var audit struct {
		Contract struct{ Version int64 }
		Events   []struct{ Type string }
	}
	if err := json.Unmarshal(extract(t, sealed["en"], "audit.json"), &audit); err != nil || audit.Contract.Version != c.Version ||
		audit.Events[len(audit.Events)-1].Type != "CONTRACT_ACTIVE" {
		t.Fatalf("audit.json: %+v, %v", audit, err)
	}

	// POST /verify: the downloaded file, and bad ones.
	none := `"contractId":null,"number":null,"version":null,"status":null}`
	checks := map[string]struct {
		file          []byte
		json, verdict string
	}{
		"downloaded": {sealed["ru"], `{"sealed":true,"intact":true,"contractId":"` + id + `","number":"` + c.Number + `","version":3,"status":"ACTIVE"}`,
			"Genuine: sealed by this service and unchanged."},
		"edited":           {flip(sealed["ru"]), `{"sealed":true,"intact":false,` + none, "changed since: do not trust its content"},
		"truncated":        {sealed["ru"][:len(sealed["ru"])-100], `{"sealed":true,"intact":false,` + none, "The file is incomplete"},
		"truncated deeply": {sealed["ru"][:len(sealed["ru"])-1000], `{"sealed":false,"intact":false,` + none, "The file is incomplete"},
		"foreign":          {foreignPDF(t), `{"sealed":false,"intact":false,` + none, "signed, but not with this service&#39;s seal"},
		"garbage":          {[]byte("\x89PNG\r\n\x1a\n not a contract at all"), `{"sealed":false,"intact":false,` + none, "This file is not a PDF."},
	}
	for name, check := range checks {
		status, body := checkFile(t, in, check.file, "application/json")
		if status != 200 || strings.TrimSpace(body) != check.json {
			t.Errorf("%s: %d %s\nwant %s", name, status, body, check.json)
		}
		if status, page := checkFile(t, in, check.file, ""); status != 200 || !strings.Contains(page, check.verdict) {
			t.Errorf("%s as a page: %d, no verdict %q in\n%.2000s", name, status, check.verdict, page)
		}
	}
	if status, page := httpCall(t, "GET", in.embedded+"/verify?lang=en", "", "", ""); status != 200 || !strings.Contains(page, seal.Fingerprint()) {
		t.Fatalf("GET /verify: %d, no fingerprint", status)
	}
	verifyURL := regexp.MustCompile(`https?://\S+/verify/` + id + `\?h=[0-9a-f]+`).FindString(testtools.PDFText(t, sealed["en"]))
	if verifyURL == "" {
		t.Fatal("the PDF prints no verify link")
	}
	if status, page := httpCall(t, "GET", in.embedded+verifyURL[strings.Index(verifyURL, "/verify/"):]+"&lang=en", "", "", ""); status != 200 ||
		!strings.Contains(page, seal.Fingerprint()) {
		t.Fatalf("/verify/<id>: %d, no fingerprint %s", status, seal.Fingerprint())
	}

	// The backup keeps the seal beside the database.
	backup := filepath.Join(dir, "backup.db")
	if out := mustRun(t, dir, "backup", "--out", backup, "--url", in.admin, "--token", in.adminToken); !strings.Contains(out, "seal.crt, seal.key") {
		t.Fatalf("backup printed: %s", out)
	}
	for _, name := range []string{pades.CertName, pades.KeyName} {
		got, _ := os.ReadFile(filepath.Join(backup+".files", name))
		want, _ := os.ReadFile(filepath.Join(data, name))
		if len(want) == 0 || !bytes.Equal(got, want) {
			t.Fatalf("the backup's %s differs from the data directory's", name)
		}
	}

	// A restart: the same seal, the same bytes in every language.
	in.stop(t)
	in = startInstance(t, dir, data, env...) // the cabinet session lasts across it
	if again := dataSeal(t, data); again.Fingerprint() != seal.Fingerprint() {
		t.Fatal("the restart made a new seal")
	}
	for _, lang := range langs {
		for _, route := range []string{viaEmbedded, viaKey, viaCabinet} {
			if doc := mustPDF(t, in, p, cabinet, route, id, lang); !bytes.Equal(doc, sealed[lang]) {
				t.Fatalf("%s through %s after a restart: other bytes", lang, route)
			}
		}
	}
	in.stop(t)
}

// TestServeSealedWithCACertificate: with seal.certFile and seal.keyFile
// naming a certificate issued by a (test) CA, its chain after it, every
// PDF is sealed by it, pdfsig calls it valid in each language, nothing is
// generated, and the verify pages know it.
func TestServeSealedWithCACertificate(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	certFile, keyFile, leaf := caIssuedSeal(t, dir, "Alpha Savdo document seal")
	in := startInstance(t, dir, data, "CONTRACTS_SEAL__CERTFILE="+certFile, "CONTRACTS_SEAL__KEYFILE="+keyFile)
	p := provision(t, in, "")
	id := createContract(t, in, p)
	for _, lang := range langs {
		doc := mustPDF(t, in, p, nil, viaKey, id, lang)
		mustSealValid(t, doc, "Alpha Savdo document seal")
		if status, body := checkFile(t, in, doc, "application/json"); status != 200 || !strings.Contains(body, `"sealed":true,"intact":true,"contractId":"`+id+`"`) ||
			!strings.Contains(body, `"version":1,"status":"CREATED"`) {
			t.Fatalf("%s: POST /verify: %d %s", lang, status, body)
		}
	}
	if _, err := os.Stat(filepath.Join(data, pades.CertName)); err == nil {
		t.Fatal("a seal was generated although one is configured")
	}
	if status, page := httpCall(t, "GET", in.embedded+"/verify", "", "", ""); status != 200 || !strings.Contains(page, pades.Fingerprint(leaf)) {
		t.Fatalf("GET /verify: %d, not the configured seal's fingerprint", status)
	}
	in.stop(t)
}

// TestServeSealedTimestamps: with seal.tsaURL the seals are time-stamped
// (B-T) and the token is kept in the database: the same bytes after a
// restart without asking the authority again. While the authority is down
// a PDF not made yet is 503 with Retry-After, as often as asked (nothing
// kept), and served once it is back.
func TestServeSealedTimestamps(t *testing.T) {
	authority := tsatest.New(t, time.Now)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	env := []string{"CONTRACTS_SEAL__TSAURL=" + authority.URL}
	in := startInstance(t, dir, data, env...)
	p := provision(t, in, "")
	id := createContract(t, in, p)
	verifier := pades.NewVerifier(dataSeal(t, data).Certificate())

	first := mustPDF(t, in, p, nil, viaKey, id, "uz")
	if r := verifier.Verify(first); !r.Intact || r.StampedAt.IsZero() || authority.Requests() != 1 {
		t.Fatalf("B-T seal: %+v after %d requests", r, authority.Requests())
	}
	mustSealValid(t, first, "Contracts document seal")
	if again := mustPDF(t, in, p, nil, viaEmbedded, id, "uz"); !bytes.Equal(again, first) {
		t.Fatal("a second download differs")
	}
	in.stop(t)
	in = startInstance(t, dir, data, env...)
	if again := mustPDF(t, in, p, nil, viaKey, id, "uz"); !bytes.Equal(again, first) || authority.Requests() != 1 {
		t.Fatalf("after a restart: same bytes %v, %d requests", bytes.Equal(again, first), authority.Requests())
	}

	authority.SetMode(tsatest.Down)
	for i := range 2 {
		for _, route := range []string{viaEmbedded, viaKey} {
			status, h, body := pdfOf(t, in, p, nil, route, id, "ru")
			if status != 503 || h.Get("Retry-After") == "" || !strings.Contains(string(body), `"code":503`) ||
				!strings.Contains(string(body), "time-stamp authority") || bytes.HasPrefix(body, []byte("%PDF")) {
				t.Fatalf("download %d through %s with the authority down: %d %q %s", i+1, route, status, h.Get("Retry-After"), body)
			}
		}
	}
	if doc := mustPDF(t, in, p, nil, viaKey, id, "uz"); !bytes.Equal(doc, first) {
		t.Fatal("the PDF made before the authority failed is no longer served")
	}
	authority.SetMode(tsatest.OK)
	doc := mustPDF(t, in, p, nil, viaKey, id, "ru")
	if r := verifier.Verify(doc); !r.Intact || r.StampedAt.IsZero() {
		t.Fatalf("once the authority is back: %+v", r)
	}
	in.stop(t)
}
