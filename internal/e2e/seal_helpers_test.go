package e2e

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"contracts/internal/testtools"
	"contracts/server/pdf/pades"
	"contracts/signflow/eimzo/eimzotest"
)

// Routes of a contract's PDF.
const (
	viaEmbedded = "embedded"
	viaKey      = "key"
	viaCabinet  = "cabinet"
)

// pdfOf downloads the contract's PDF in lang through one route; cabinet is
// a logged-in cabinet client (for viaCabinet).
func pdfOf(t *testing.T, in *instance, p *provisioned, cabinet *http.Client, route, id, lang string) (int, http.Header, []byte) {
	t.Helper()
	var req *http.Request
	switch route {
	case viaEmbedded:
		req, _ = http.NewRequest("GET", in.embedded+"/v1/contracts/"+id+"/pdf?lang="+lang, nil)
		req.Header.Set("Authorization", "Bearer "+p.token)
	case viaKey:
		req, _ = http.NewRequest("GET", in.key+"/v1/contracts/"+id+"/pdf?lang="+lang, nil)
		req.Header.Set("X-API-Key", p.apiKey)
	default:
		req, _ = http.NewRequest("GET", in.key+"/cabinet/contracts/"+id+"/pdf?lang="+lang, nil)
	}
	client := http.DefaultClient
	if route == viaCabinet {
		client = cabinet
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s PDF: %v", route, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, data
}

// mustPDF downloads a PDF that must be served.
func mustPDF(t *testing.T, in *instance, p *provisioned, cabinet *http.Client, route, id, lang string) []byte {
	t.Helper()
	status, h, data := pdfOf(t, in, p, cabinet, route, id, lang)
	if status != 200 || h.Get("Content-Type") != "application/pdf" || !bytes.HasPrefix(data, []byte("%PDF-")) {
		t.Fatalf("%s PDF in %s: %d %s %.200s", route, lang, status, h.Get("Content-Type"), data)
	}
	return data
}

var smsCodeRE = regexp.MustCompile(`\b(\d{5})\b`)

// smsCode waits for the console SMS provider to log more than before
// messages to phone, and returns the code of the newest.
func smsCode(t *testing.T, in *instance, phone string, before int) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		sent := smsTo(in, phone)
		if len(sent) > before {
			m := smsCodeRE.FindStringSubmatch(sent[len(sent)-1])
			if m == nil {
				t.Fatalf("SMS to %s without a code: %q", phone, sent[len(sent)-1])
			}
			return m[1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("no SMS to %s after 10s", phone)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// smsTo lists the texts the console SMS provider logged for phone.
func smsTo(in *instance, phone string) []string {
	var out []string
	for _, l := range logLines(in.stderr.String(), "SMS (console provider)") {
		if l["phone"] == phone {
			text, _ := l["text"].(string)
			out = append(out, text)
		}
	}
	return out
}

// signBoth signs the contract as both parties do: the owner (a company)
// with its E-IMZO key against the fake E-IMZO server, then the customer
// with an SMS code. It returns the owner's PKCS #7 as sent.
func signBoth(t *testing.T, in *instance, p *provisioned, id string) string {
	t.Helper()
	auth := []string{"Authorization", "Bearer " + p.token}
	var owner, customer struct{ URL, Method string }
	mustCall(t, "POST", in.embedded+"/v1/contracts/"+id+"/sign-sessions", jsonBody(map[string]string{"signerIn": loadOwnerIN, "lang": "en"}), &owner, auth...)
	if owner.Method != "E_IMZO" {
		t.Fatalf("the owner's session is %s, not E_IMZO", owner.Method)
	}
	token := owner.URL[strings.LastIndex(owner.URL, "/")+1:]
	status, page := httpCall(t, "GET", in.embedded+"/sign/"+token, "", "", "")
	m := regexp.MustCompile(`"data64":"([^"]+)"`).FindStringSubmatch(page)
	if status != 200 || m == nil {
		t.Fatalf("E-IMZO signing page: %d, no data64", status)
	}
	hash, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		t.Fatal(err)
	}
	p7 := eimzotest.Sign(string(hash), eimzotest.Key{TIN: loadOwnerIN, CN: "ALPHA SAVDO MCHJ"})
	if status, body := httpCall(t, "POST", in.embedded+"/sign/"+token+"/eimzo", "", "application/json", string(jsonBody(map[string]string{"pkcs7": p7}))); status != 200 {
		t.Fatalf("E-IMZO signature: %d %s", status, body)
	}
	mustCall(t, "POST", in.embedded+"/v1/contracts/"+id+"/sign-sessions", jsonBody(map[string]string{"signerIn": loadCustomerIN, "lang": "en"}), &customer, auth...)
	token = customer.URL[strings.LastIndex(customer.URL, "/")+1:]
	before := len(smsTo(in, customerPhone))
	if status, body := httpCall(t, "POST", in.embedded+"/sign/"+token+"/code", "", "application/json", "{}"); status != 200 {
		t.Fatalf("send code: %d %s", status, body)
	}
	code := smsCode(t, in, customerPhone, before)
	if status, body := httpCall(t, "POST", in.embedded+"/sign/"+token+"/confirm", "", "application/json", `{"code":"`+code+`"}`); status != 200 ||
		!strings.Contains(body, `"contractStatus":"ACTIVE"`) {
		t.Fatalf("confirm: %d %s", status, body)
	}
	return p7
}

// customerPhone is the provisioned customer's phone as the SMS provider sees it.
const customerPhone = "998901234567"

var cabinetConfigRE = regexp.MustCompile(`(?s)<script type="application/json" id="cabinet-config">(.*?)</script>`)

// cabinetLogin logs the customer into the cabinet with the code texted to
// its phone and returns the logged-in client.
func cabinetLogin(t *testing.T, in *instance) *http.Client {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	resp, err := c.Get(in.key + "/cabinet?lang=en")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := cabinetConfigRE.FindSubmatch(page)
	var cfg struct{ CSRF string }
	if m == nil || json.Unmarshal(m[1], &cfg) != nil || cfg.CSRF == "" {
		t.Fatalf("cabinet login page: %d, no CSRF token", resp.StatusCode)
	}
	post := func(path string, body map[string]string) {
		t.Helper()
		req, _ := http.NewRequest("POST", in.key+path, bytes.NewReader(jsonBody(body)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-CSRF-Token", cfg.CSRF)
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("POST %s: %d %s", path, resp.StatusCode, data)
		}
	}
	before := len(smsTo(in, customerPhone))
	post("/cabinet/api/login/code", map[string]string{"number": loadCustomerIN})
	post("/cabinet/api/login", map[string]string{"number": loadCustomerIN, "code": smsCode(t, in, customerPhone, before)})
	return c
}

// checkFile uploads a file to POST /verify on the embedded listener;
// accept "" asks for the page.
func checkFile(t *testing.T, in *instance, file []byte, accept string) (int, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, _ := mw.CreateFormFile("file", "contract.pdf")
	fw.Write(file)
	mw.Close()
	req, _ := http.NewRequest("POST", in.embedded+"/verify?lang=en", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// writeFile writes data into a test directory and returns the path.
func writeFile(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// pdfsig runs pdfsig on a PDF and returns its report.
func pdfsig(t *testing.T, data []byte) string {
	t.Helper()
	testtools.Need(t, "pdfsig")
	out, _ := exec.Command("pdfsig", writeFile(t, "contract.pdf", data)).CombinedOutput()
	return string(out)
}

// mustSealValid fails unless pdfsig calls the one seal valid over the whole
// file, made by the certificate of the common name.
func mustSealValid(t *testing.T, data []byte, commonName string) {
	t.Helper()
	out := pdfsig(t, data)
	for _, want := range []string{"Signature Validation: Signature is Valid.", "Total document signed",
		"Signature Type: ETSI.CAdES.detached", "Signer Certificate Common Name: " + commonName} {
		if !strings.Contains(out, want) {
			t.Fatalf("pdfsig lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Signature #2") {
		t.Fatalf("more than one signature:\n%s", out)
	}
}

// attachments lists the files attached to a PDF (pdfdetach -list).
func attachments(t *testing.T, data []byte) string {
	t.Helper()
	testtools.Need(t, "pdfdetach")
	out, err := exec.Command("pdfdetach", "-list", writeFile(t, "contract.pdf", data)).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfdetach: %v %s", err, out)
	}
	return string(out)
}

// dataSeal reads the seal kept in a data directory.
func dataSeal(t *testing.T, dataDir string) *pades.Identity {
	t.Helper()
	id, err := pades.LoadIdentity(filepath.Join(dataDir, pades.CertName), filepath.Join(dataDir, pades.KeyName))
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// flip returns data with its middle byte changed.
func flip(data []byte) []byte {
	out := bytes.Clone(data)
	out[len(out)/2] ^= 0x01
	return out
}

// extract returns the attachment of a PDF saved by pdfdetach.
func extract(t *testing.T, data []byte, name string) []byte {
	t.Helper()
	testtools.Need(t, "pdfdetach")
	dir := t.TempDir()
	if out, err := exec.Command("pdfdetach", "-saveall", "-o", dir, writeFile(t, "contract.pdf", data)).CombinedOutput(); err != nil {
		t.Fatalf("pdfdetach -saveall: %v %s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("attachment %s: %v", name, err)
	}
	return got
}
