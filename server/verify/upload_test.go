package verify

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"contracts/internal/fixture"
	"contracts/server"
	"contracts/server/i18n"
	"contracts/server/pdf"
	"contracts/server/pdf/pades"
	"contracts/signflow"

	"github.com/rs/zerolog"
)

// uploadEnv is an embedded-listener echo server on a loopback port with
// the verify routes, a contract and a sealer.
type uploadEnv struct {
	w      *fixture.Standard
	srv    *httptest.Server
	sealer *pades.Sealer
	c      *signflow.Contract
}

var (
	sealOnce sync.Once
	sealID   *pades.Identity
	sealErr  error
)

func newUploadEnv(t *testing.T) *uploadEnv {
	t.Helper()
	sealOnce.Do(func() { sealID, sealErr = pades.GeneratedIdentity(pades.Dir(t.TempDir()), "Contracts") })
	if sealErr != nil {
		t.Fatal(sealErr)
	}
	sealer, err := pades.NewSealer(sealID, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := fixture.NewStandard(t)
	e := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	Register(e, Deps{Service: w.Service, SealFingerprint: sealID.Fingerprint(), Verifier: pades.NewVerifier(sealer.Certificate())})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return &uploadEnv{w: w, srv: srv, sealer: sealer, c: w.Contract(t)}
}

// sealed renders and seals the contract as it is now, in lang.
func (u *uploadEnv) sealed(t *testing.T, lang string) []byte {
	t.Helper()
	v, err := u.w.Service.Contract(u.w.Access(t, u.w.AppA), u.c.ID)
	if err != nil {
		t.Fatal(err)
	}
	audit, _ := u.w.Service.AuditTrail(u.c.ID)
	var buf bytes.Buffer
	if err := pdf.Contract(&buf, v, audit, lang, signflow.VerifyURL(u.srv.URL, u.c)); err != nil {
		t.Fatal(err)
	}
	auditJSON, _ := json.Marshal(audit)
	out, err := u.sealer.Seal(context.Background(), pades.Document{PDF: buf.Bytes(), SigningTime: v.UpdatedAt,
		Contract:    pades.Contract{ID: v.ID, Number: v.Number, Version: v.Version},
		Attachments: []pades.Attachment{{Name: "audit.json", MIME: "application/json", Data: auditJSON}}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// post uploads file in the multipart field name to POST /verify.
func (u *uploadEnv) post(t *testing.T, query, field string, file []byte, accept string) (int, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	fw, err := mw.CreateFormFile(field, "contract.pdf")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(file)
	mw.Close()
	req, _ := http.NewRequest("POST", u.srv.URL+"/verify"+query, &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func ptr[T any](v T) *T { return &v }

// TestUploadJSON: the JSON answer for each kind of file, in exactly the
// six fields, with the contract's current status looked up.
func TestUploadJSON(t *testing.T) {
	u := newUploadEnv(t)
	good := u.sealed(t, "en")
	rendered := good[:bytes.Index(good, []byte("%%EOF"))+6] // the PDF before the seal
	edited := bytes.Clone(good)
	edited[100] ^= 0x20
	// The contract changes after its file was sealed: version 2, cancelled.
	if _, err := u.w.Service.Cancel(u.w.Access(t, u.w.AppA), u.c.ID, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	other := newUploadEnv(t) // another contract, unknown to the first store
	unknown := other.sealed(t, "ru")

	cases := []struct {
		name string
		file []byte
		want Answer
	}{
		{"intact", good, Answer{true, true, &u.c.ID, &u.c.Number, ptr(int64(1)), ptr("CANCELLED")}},
		{"appended", append(bytes.Clone(good), "% more\n"...), Answer{true, false, &u.c.ID, &u.c.Number, ptr(int64(1)), ptr("CANCELLED")}},
		{"edited", edited, Answer{Sealed: true}},
		{"truncated", good[:len(good)-100], Answer{Sealed: true}},
		{"unsealed", rendered, Answer{}},
		{"garbage", []byte("GIF89a not a pdf"), Answer{}},
		{"empty", nil, Answer{}},
		{"unknown contract", unknown, Answer{true, true, &other.c.ID, &other.c.Number, ptr(int64(1)), nil}},
	}
	for _, c := range cases {
		code, body := u.post(t, "", "file", c.file, "application/json")
		var fields map[string]json.RawMessage
		var got Answer
		if code != 200 || json.Unmarshal([]byte(body), &fields) != nil || json.Unmarshal([]byte(body), &got) != nil {
			t.Errorf("%s: %d %s", c.name, code, body)
			continue
		}
		if len(fields) != 6 {
			t.Errorf("%s: fields %s, want exactly sealed, intact, contractId, number, version, status", c.name, body)
		}
		wantJSON, _ := json.Marshal(c.want)
		gotJSON, _ := json.Marshal(got)
		if !bytes.Equal(wantJSON, gotJSON) {
			t.Errorf("%s: %s, want %s", c.name, gotJSON, wantJSON)
		}
	}
}

// TestUploadRefusals: over 10 MiB is 413, no file field or no multipart
// body is 400, as JSON error bodies or as the page.
func TestUploadRefusals(t *testing.T) {
	u := newUploadEnv(t)
	big := bytes.Repeat([]byte("x"), server.MaxUpload+1)
	if code, body := u.post(t, "", "file", big, "application/json"); code != 413 || !strings.Contains(body, `"code":413`) {
		t.Errorf("11 MiB: %d %s", code, body)
	}
	if code, body := u.post(t, "?lang=en", "file", big, ""); code != 413 || !strings.Contains(body, "larger than 10 MiB") {
		t.Errorf("11 MiB, page: %d %.200s", code, body)
	}
	exact := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte(" "), server.MaxUpload-9)...)
	if code, body := u.post(t, "", "file", exact, "application/json"); code != 200 || !strings.Contains(body, `"sealed":false`) {
		t.Errorf("exactly 10 MiB: %d %.200s", code, body)
	}
	if code, body := u.post(t, "", "document", []byte("%PDF-1.7"), "application/json"); code != 400 || !strings.Contains(body, "field file") {
		t.Errorf("wrong field: %d %s", code, body)
	}
	resp, err := http.Post(u.srv.URL+"/verify", "application/pdf", strings.NewReader("%PDF-1.7"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("a bare PDF body: %d", resp.StatusCode)
	}
	// Other routes keep the 1 MiB limit.
	resp, err = http.Post(u.srv.URL+"/verify/"+u.c.ID, "application/pdf", bytes.NewReader(make([]byte, server.MaxBody+1)))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 413 {
		t.Errorf("2 MiB to another route: %d", resp.StatusCode)
	}
}

// TestUploadPage: without JSON the answer is a page in the asked language,
// with the verdict, the contract and the seal's fingerprint.
func TestUploadPage(t *testing.T) {
	u := newUploadEnv(t)
	good := u.sealed(t, "uz")
	edited := bytes.Clone(good)
	edited[100] ^= 0x20
	for _, lang := range []string{"uz", "ru", "en"} {
		code, body := u.post(t, "?lang="+lang, "file", good, "text/html")
		c := i18n.Verify.For(lang)
		for _, want := range []string{`lang="` + lang + `"`, c["verdict.INTACT"], u.c.Number, c["status.CREATED"], sealID.Fingerprint(), `name="file"`} {
			if code != 200 || !strings.Contains(body, want) {
				t.Errorf("%s: %d, page lacks %q", lang, code, want)
			}
		}
		if _, body := u.post(t, "?lang="+lang, "file", edited, ""); !strings.Contains(body, c["verdict.MODIFIED"]) || strings.Contains(body, u.c.Number) {
			t.Errorf("%s: the edited file's page lacks the verdict or shows the number", lang)
		}
	}
	resp, err := http.Get(u.srv.URL + "/verify?lang=ru")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), i18n.Verify.For("ru")["checkButton"]) || !strings.Contains(resp.Header.Get("Content-Security-Policy"), "form-action 'self'") {
		t.Errorf("GET /verify: %d %s", resp.StatusCode, resp.Header.Get("Content-Security-Policy"))
	}
}

// TestContractPageFingerprint: the contract's verify page shows the seal
// certificate's fingerprint.
func TestContractPageFingerprint(t *testing.T) {
	u := newUploadEnv(t)
	resp, err := http.Get(signflow.VerifyURL(u.srv.URL, u.c) + "&lang=en")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), sealID.Fingerprint()) || !strings.Contains(string(b), "Seal certificate (SHA-256)") {
		t.Errorf("%d: page lacks the fingerprint", resp.StatusCode)
	}
}
