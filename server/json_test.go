package server

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// A JSON answer goes out with its length, in one piece, however large:
// without Content-Length net/http chunks an answer past its 2 KiB buffer.
func TestJSONAnswerCarriesItsLength(t *testing.T) {
	e := NewEcho("embedded", zerolog.Nop(), NewMetrics(), false)
	big := strings.Repeat("x", 64<<10)
	e.GET("/big", func(c echo.Context) error { return JSON(c, http.StatusOK, map[string]string{"v": big}) })
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	resp, err := http.Get(srv.URL + "/big")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]string
	if err := json.Unmarshal(body, &v); err != nil || v["v"] != big {
		t.Fatalf("body %.40s...: %v", body, err)
	}
	if resp.ContentLength != int64(len(body)) || len(resp.TransferEncoding) != 0 {
		t.Fatalf("Content-Length %d, transfer encoding %v, for %d bytes", resp.ContentLength, resp.TransferEncoding, len(body))
	}
}

// JSONBlob writes what echo's Blob writes: the JSON content type unless the
// handler set one, and the length.
func TestJSONBlobHeaders(t *testing.T) {
	e := NewEcho("embedded", zerolog.Nop(), NewMetrics(), false)
	e.GET("/plain", func(c echo.Context) error { return JSONBlob(c, http.StatusCreated, []byte(`{"a":1}`)) })
	e.GET("/problem", func(c echo.Context) error {
		c.Response().Header().Set("Content-Type", "application/problem+json")
		return JSONBlob(c, http.StatusOK, []byte(`{}`))
	})
	for path, want := range map[string][3]string{"/plain": {"201", MIMEJSON, "7"}, "/problem": {"200", "application/problem+json", "2"}} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
		if got := rec.Header().Values("Content-Type"); itoa(rec.Code) != want[0] || len(got) != 1 || got[0] != want[1] ||
			rec.Header().Get("Content-Length") != want[2] {
			t.Errorf("%s: %d %v", path, rec.Code, rec.Header())
		}
	}
}
