package embedded

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"
)

func BenchmarkZZServe(b *testing.B) {
	e := newEnv(b, 0)
	tok := e.token(e.AppA)
	id := e.createContract(tok, mustJSONMap(b, benchContract(e.Standard)))
	b.Run("get", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			req := httptest.NewRequest(http.MethodGet, "/v1/contracts/"+id, nil)
			req.Header.Set("Authorization", "Bearer "+tok)
			rec := httptest.NewRecorder()
			e.echo.ServeHTTP(rec, req)
			if rec.Code != 200 {
				b.Fatal(rec.Code)
			}
		}
	})
	bare := bareEchoJSON()
	b.Run("bare", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			req := httptest.NewRequest(http.MethodGet, "/ping", nil)
			rec := httptest.NewRecorder()
			bare.ServeHTTP(rec, req)
		}
	})
	a := e.Access(b, e.AppA)
	b.Run("auth", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			e.Service.AuthenticateToken(tok)
		}
	})
	b.Run("contract", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			e.Service.Contract(a, id)
		}
	})
}

func BenchmarkZZCreate(b *testing.B) {
	e := newEnv(b, 0)
	e.DB.Bolt().MaxBatchDelay = 0
	e.DB.Bolt().NoSync = true
	tok := e.token(e.AppA)
	body := benchContract(e.Standard)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		req := httptest.NewRequest(http.MethodPost, "/v1/contracts", bytesReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		e.echo.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code, rec.Body.String())
		}
	}
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
