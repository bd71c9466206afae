package apitest

import (
	"fmt"
	"strings"
	"testing"

	"contracts/server"
)

// Scenario is one row of a table of API scenarios: a request and what
// must come back. Rows are written with named fields.
type Scenario struct {
	Name string
	// Before, when set, runs just before the request: it moves the clock,
	// breaks an outside service, notes what must not change.
	Before func()
	Method string // "" is GET
	Path   string // after the Caller's URL
	As     string // the credential, put on the request by the Caller's Auth
	Body   any    // as Caller.Do sends it; a func() string is called when the row runs
	Header map[string]string

	// Status is the answer's status; 0 leaves the status to Check, which
	// the row must then have.
	Status int
	// Reason is the refusal the answer names in server.ReasonHeader; ""
	// means the answer names none.
	Reason string
	// WantHeader holds answer headers and their exact values.
	WantHeader map[string]string
	// Want and Not hold substrings the body must and must not hold.
	Want, Not []string
	// Check, when set, makes further assertions about the answer.
	Check func(t *testing.T, r Reply)
}

// Run runs the rows in order, each as a subtest through the Caller. Rows
// may build on the ones before (a code an earlier row had sent, a clock
// moved by Before), so the first row that fails ends the table.
func Run(t *testing.T, c *Caller, rows []Scenario) {
	t.Helper()
	for _, sc := range rows {
		if !t.Run(sc.Name, func(t *testing.T) { c.run(t, sc) }) {
			return
		}
	}
}

// run sends one row and checks its answer.
func (c *Caller) run(t *testing.T, sc Scenario) {
	t.Helper()
	if sc.Status == 0 && sc.Check == nil {
		t.Fatal("the row names no status and has no Check: it would check nothing")
	}
	if sc.Before != nil {
		sc.Before()
	}
	var header []string
	for k, v := range sc.Header {
		header = append(header, k, v)
	}
	method := sc.Method
	if method == "" {
		method = "GET"
	}
	r := c.Do(t, method, sc.Path, sc.As, sc.Body, header...)
	if stop := sc.stopper(r); stop != "" {
		t.Fatal(stop)
	}
	for _, p := range c.problems(sc, r) {
		t.Error(p)
	}
	if sc.Check != nil {
		sc.Check(t, r)
	}
}

// stopper says why the answer is not the one the row is about: its
// status or refusal differs, so nothing else about it is worth checking.
func (sc Scenario) stopper(r Reply) string {
	reason := r.Header.Get(server.ReasonHeader)
	if (sc.Status != 0 && r.Status != sc.Status) || reason != sc.Reason {
		return fmt.Sprintf("status %d, reason %q; want %d, %q\n%s", r.Status, reason, sc.Status, sc.Reason, r.Body)
	}
	return ""
}

// problems lists every other way the answer departs from the row and
// from the rules of the Caller's suite.
func (c *Caller) problems(sc Scenario, r Reply) []string {
	var out []string
	if c.Answer != nil {
		path, _, _ := strings.Cut(sc.Path, "?")
		out = append(out, c.Answer(path, r)...)
	}
	for k, v := range sc.WantHeader {
		if got := r.Header.Get(k); got != v {
			out = append(out, fmt.Sprintf("%s %q, want %q", k, got, v))
		}
	}
	for _, w := range sc.Want {
		if !strings.Contains(r.Body, w) {
			out = append(out, fmt.Sprintf("body lacks %q: %s", w, r.Body))
		}
	}
	for _, n := range sc.Not {
		if strings.Contains(r.Body, n) {
			out = append(out, fmt.Sprintf("body holds %q: %s", n, r.Body))
		}
	}
	return out
}
