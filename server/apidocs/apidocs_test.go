package apidocs_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"contracts/assets"
	"contracts/server"
	"contracts/server/apidocs"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// listeners are the two interfaces as main wires them.
var listeners = []struct {
	name     string
	document []byte
	baseURL  string
	withPath bool
}{
	{"embedded", assets.OpenAPIEmbedded, "https://sign.example.uz/", false},
	{"key", assets.OpenAPIKey, "https://api.example.uz", true},
}

func newServer(t *testing.T, document []byte, baseURL string, withPath bool) *httptest.Server {
	t.Helper()
	e := server.NewEcho("test", zerolog.Nop(), server.NewMetrics(), withPath)
	apidocs.Register(e, apidocs.Deps{Document: document, BaseURL: baseURL})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv
}

func get(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

func load(t *testing.T, data []byte) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("validate: %v", err)
	}
	return doc
}

func TestServedDocuments(t *testing.T) {
	for _, l := range listeners {
		t.Run(l.name, func(t *testing.T) {
			srv := newServer(t, l.document, l.baseURL, l.withPath)
			want := strings.TrimRight(l.baseURL, "/")
			var served []*openapi3.T
			for _, c := range []struct{ path, contentType string }{
				{"/api-docs", "application/json; charset=utf-8"},
				{"/api-docs.yaml", "application/yaml; charset=utf-8"},
			} {
				resp, body := get(t, srv.URL+c.path)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("GET %s: %d", c.path, resp.StatusCode)
				}
				if got := resp.Header.Get("Content-Type"); got != c.contentType {
					t.Errorf("GET %s: Content-Type %q, want %q", c.path, got, c.contentType)
				}
				if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
					t.Errorf("GET %s: Access-Control-Allow-Origin %q", c.path, got)
				}
				doc := load(t, body)
				if doc.Info.Version != "1.0" {
					t.Errorf("GET %s: info.version %q, want 1.0", c.path, doc.Info.Version)
				}
				if len(doc.Servers) != 1 || doc.Servers[0].URL != want {
					t.Errorf("GET %s: servers %v, want one with url %s", c.path, doc.Servers, want)
				}
				served = append(served, doc)
			}
			// The JSON and the YAML are the same description.
			j, _ := served[0].MarshalJSON()
			y, _ := served[1].MarshalJSON()
			if string(j) != string(y) {
				t.Error("/api-docs and /api-docs.yaml differ")
			}
		})
	}
}

// TestJSONKeepsOrder: the JSON form reads in the order of the source.
func TestJSONKeepsOrder(t *testing.T) {
	srv := newServer(t, assets.OpenAPIEmbedded, "http://localhost:8080", false)
	_, body := get(t, srv.URL+"/api-docs")
	s := string(body)
	order := []string{`"openapi"`, `"info"`, `"servers"`, `"tags"`, `"security"`, `"paths"`, `"components"`}
	last := -1
	for _, k := range order {
		i := strings.Index(s, k)
		if i < last {
			t.Fatalf("%s is out of order in /api-docs", k)
		}
		last = i
	}
	if !strings.HasPrefix(s, "{\n  \"openapi\": \"3.0.3\"") {
		t.Errorf("/api-docs starts %q", s[:40])
	}
}

func TestServersAddedWhenMissing(t *testing.T) {
	src := []byte("openapi: 3.0.3\ninfo: {title: T, version: \"1.0\"}\npaths: {}\n")
	srv := newServer(t, src, "https://x.example", false)
	_, body := get(t, srv.URL+"/api-docs")
	doc := load(t, body)
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "https://x.example" {
		t.Fatalf("servers %v", doc.Servers)
	}
}

func TestRegisterPanicsOnBrokenDocument(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Register accepted a document that is not YAML")
		}
	}()
	apidocs.Register(echo.New(), apidocs.Deps{Document: []byte("openapi: [unclosed"), BaseURL: "http://x"})
}

var scriptTag = regexp.MustCompile(`<script[^>]*>`)

func TestDocsPage(t *testing.T) {
	for _, l := range listeners {
		t.Run(l.name, func(t *testing.T) {
			srv := newServer(t, l.document, l.baseURL, l.withPath)
			resp, body := get(t, srv.URL+"/docs")
			if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
				t.Fatalf("GET /docs: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			csp := resp.Header.Get("Content-Security-Policy")
			if csp != apidocs.PageCSP || !strings.Contains(csp, "script-src 'self';") || strings.Contains(csp, "unsafe-eval") {
				t.Errorf("CSP %q", csp)
			}
			page := string(body)
			tags := scriptTag.FindAllString(page, -1)
			wantTag := `<script src="docs/redoc-` + assets.RedocVersion + `.js">`
			if len(tags) != 1 || tags[0] != wantTag {
				t.Errorf("script tags %q, want only %q", tags, wantTag)
			}
			if !strings.Contains(page, `<redoc spec-url="api-docs"`) {
				t.Error("the page does not point Redoc at api-docs")
			}
			title := "Contracts — embedded signing interface"
			if l.name == "key" {
				title = "Contracts — key interface"
			}
			if !strings.Contains(page, "<title>"+title+" — API reference</title>") {
				t.Errorf("title missing from %s", page)
			}

			resp, js := get(t, srv.URL+"/docs/redoc-"+assets.RedocVersion+".js")
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/javascript; charset=utf-8" {
				t.Fatalf("GET script: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			if string(js) != string(assets.Redoc) || !strings.Contains(string(js[:20000]), `Version: "`+assets.RedocVersion+`"`) && !strings.Contains(string(js), `"`+assets.RedocVersion+`"`) {
				t.Error("the script is not the pinned Redoc bundle")
			}
			if len(js) > 3<<20 {
				t.Errorf("the renderer is %d bytes, over the 3 MB budget", len(js))
			}
		})
	}
}
