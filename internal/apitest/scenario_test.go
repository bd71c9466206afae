package apitest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
	"github.com/rs/zerolog"
)

// Each assertion of a row fails on an answer that breaks it, and only then.
func TestScenarioFindsEveryDeparture(t *testing.T) {
	ok := Reply{Status: 400, Header: http.Header{"Content-Type": {server.MIMEJSON}, server.ReasonHeader: {"wrong-code"}, "X-Attempts-Left": {"4"}},
		Body: `{"code":400,"status":"400 Bad Request","message":"wrong code, 4 attempt(s) left","timestamp":"2026-11-22T09:00:00+00:00"}`}
	row := Scenario{Status: 400, Reason: "wrong-code", WantHeader: map[string]string{"X-Attempts-Left": "4"},
		Want: []string{"4 attempt(s) left"}, Not: []string{"secret"}}
	c := &Caller{Answer: JSONAnswers(Embedded)}
	if stop, problems := row.stopper(ok), c.problems(row, ok); stop != "" || len(problems) != 0 {
		t.Fatalf("a right answer: %q %q", stop, problems)
	}
	for _, tc := range []struct {
		name   string
		edit   func(r *Reply)
		stops  bool
		reason string // a word of the problem
	}{
		{name: "status", edit: func(r *Reply) { r.Status = 403 }, stops: true},
		{name: "no reason", edit: func(r *Reply) { r.Header = r.Header.Clone(); r.Header.Del(server.ReasonHeader) }, stops: true},
		{name: "header", edit: func(r *Reply) { r.Header = r.Header.Clone(); r.Header.Set("X-Attempts-Left", "3") }, reason: "X-Attempts-Left"},
		{name: "want", edit: func(r *Reply) { r.Body = strings.Replace(r.Body, "4 attempt", "four attempt", 1) }, reason: "lacks"},
		{name: "not", edit: func(r *Reply) { r.Body = strings.Replace(r.Body, "wrong code", "secret", 1) }, reason: "holds"},
		{name: "content type", edit: func(r *Reply) { r.Header = r.Header.Clone(); r.Header.Set("Content-Type", "application/json") }, reason: "Content-Type"},
		{name: "error code", edit: func(r *Reply) { r.Body = strings.Replace(r.Body, `"code":400`, `"code":500`, 1) }, reason: "code/status"},
		{name: "no message", edit: func(r *Reply) { r.Body = strings.Replace(r.Body, `"message"`, `"msg"`, 1) }, reason: "message"},
		{name: "timestamp", edit: func(r *Reply) { r.Body = strings.Replace(r.Body, "+00:00", "Z", 1) }, reason: "timestamp"},
		{name: "path on the embedded interface", edit: func(r *Reply) { r.Body = strings.Replace(r.Body, "{", `{"path":"/x",`, 1) }, reason: "path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ok
			tc.edit(&r)
			stop, problems := row.stopper(r), c.problems(row, r)
			if tc.stops != (stop != "") {
				t.Fatalf("stopper %q", stop)
			}
			if !tc.stops && (len(problems) != 1 || !strings.Contains(problems[0], tc.reason)) {
				t.Fatalf("problems %q, want one about %s", problems, tc.reason)
			}
		})
	}
}

// The key interface's errors carry the request path and the message as
// description.
func TestKeyAnswers(t *testing.T) {
	answer := JSONAnswers(Key)
	r := Reply{Status: 404, Header: http.Header{"Content-Type": {server.MIMEJSON}},
		Body: `{"code":404,"status":"404 Not Found","message":"no","description":"no","path":"/v1/x","timestamp":"2026-11-22T09:00:00+05:00"}`}
	if p := answer("/v1/x", r); len(p) != 0 {
		t.Fatalf("a right answer: %q", p)
	}
	if p := answer("/v1/y", r); len(p) != 1 || !strings.Contains(p[0], "path") {
		t.Fatalf("another path: %q", p)
	}
	r.Body = strings.Replace(r.Body, `"description":"no"`, `"description":"yes"`, 1)
	if p := answer("/v1/x", r); len(p) != 1 || !strings.Contains(p[0], "description") {
		t.Fatalf("another description: %q", p)
	}
}

// Run sends the rows in order through the Caller: Before first, the
// credential, body and headers on the request, Check last.
func TestRunSendsTheRows(t *testing.T) {
	var seen []string
	e := server.NewEcho("embedded", zerolog.Nop(), nil, false)
	e.POST("/echo", func(c echo.Context) error {
		seen = append(seen, "request "+c.Request().Header.Get("Authorization")+" "+c.Request().Header.Get("X-Extra"))
		body := map[string]string{}
		if err := c.Bind(&body); err != nil {
			return err
		}
		return server.JSON(c, http.StatusOK, body)
	})
	e.GET("/refuse", func(c echo.Context) error {
		return server.Refuse(c, signflow.ErrSessionClosed)
	})
	srv := httptest.NewServer(e)
	defer srv.Close()
	c := &Caller{URL: srv.URL, Auth: Bearer, Answer: JSONAnswers(Embedded)}
	Run(t, c, []Scenario{
		{Name: "post", Before: func() { seen = append(seen, "before") }, Method: "POST", Path: "/echo", As: "t0ken",
			Body: func() string { return `{"a":"b"}` }, Header: map[string]string{"X-Extra": "x"}, Status: 200, Want: []string{`"a":"b"`},
			Check: func(t *testing.T, r Reply) { seen = append(seen, "check "+r.JSON(t)["a"].(string)) }},
		{Name: "refusal", Path: "/refuse", Status: 403, Reason: "session-closed"},
	})
	if got := strings.Join(seen, ", "); got != "before, request Bearer t0ken x, check b" {
		t.Fatalf("order %q", got)
	}
}
