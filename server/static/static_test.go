package static

import (
	"io"
	"net"
	"net/http"
	"testing"

	"github.com/labstack/echo/v4"
)

func TestServe(t *testing.T) {
	set := New(File{Name: "a.css", Body: []byte("a{}")}, File{Name: "b.js", Body: []byte("b()"), Cache: "public, max-age=3600"})
	e := echo.New()
	e.GET("/assets/:name", set.Serve)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: e}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	base := "http://" + ln.Addr().String() + "/assets/"

	get := func(name, etag string) (*http.Response, string) {
		req, _ := http.NewRequest(http.MethodGet, base+name, nil)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body, _ := io.ReadAll(res.Body)
		return res, string(body)
	}

	res, body := get("a.css", "")
	if res.StatusCode != 200 || body != "a{}" || res.Header.Get("Content-Type") != "text/css; charset=utf-8" ||
		res.Header.Get("Cache-Control") != "public, max-age=86400" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("a.css: %d %q %v", res.StatusCode, body, res.Header)
	}
	if res, _ := get("a.css", res.Header.Get("ETag")); res.StatusCode != http.StatusNotModified {
		t.Fatalf("a.css with its ETag: %d, want 304", res.StatusCode)
	}
	res, body = get("b.js", `"other"`)
	if res.StatusCode != 200 || body != "b()" || res.Header.Get("Content-Type") != "text/javascript; charset=utf-8" ||
		res.Header.Get("Cache-Control") != "public, max-age=3600" {
		t.Fatalf("b.js: %d %q %v", res.StatusCode, body, res.Header)
	}
	if res, _ := get("c.js", ""); res.StatusCode != http.StatusNotFound {
		t.Fatalf("unknown file: %d, want 404", res.StatusCode)
	}
}

func TestVersionFollowsTheFiles(t *testing.T) {
	a := New(File{Name: "a.css", Body: []byte("a{}")})
	if b := New(File{Name: "a.css", Body: []byte("a{}")}); a.Version != b.Version || len(a.Version) != 12 {
		t.Fatalf("same files, versions %q and %q", a.Version, b.Version)
	}
	if b := New(File{Name: "a.css", Body: []byte("a{ }")}); a.Version == b.Version {
		t.Fatal("a changed file kept the version")
	}
}
