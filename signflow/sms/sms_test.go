package sms

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"contracts/signflow"
)

func TestHTTPProviderPostsJSONWithHeaders(t *testing.T) {
	var got map[string]string
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		json.NewDecoder(r.Body).Decode(&got)
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	p := NewHTTP(srv.URL, map[string]string{"Authorization": "Bearer gw"}, time.Second)
	if err := p.Send(context.Background(), "998901234567", "code 12345"); err != nil {
		t.Fatal(err)
	}
	if got["phone"] != "998901234567" || got["text"] != "code 12345" || auth != "Bearer gw" {
		t.Fatalf("gateway got %v auth=%q", got, auth)
	}
}

func TestHTTPProviderFailuresAreUnavailable(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) }))
	p := NewHTTP(srv.URL, nil, time.Second)
	if err := p.Send(context.Background(), "1", "x"); signflow.ErrorCode(err) != signflow.EUNAVAILABLE {
		t.Fatalf("500: code %q", signflow.ErrorCode(err))
	}
	srv.Close()
	if err := p.Send(context.Background(), "1", "x"); signflow.ErrorCode(err) != signflow.EUNAVAILABLE {
		t.Fatalf("closed: code %q", signflow.ErrorCode(err))
	}
}
