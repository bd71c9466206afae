package apitest

import (
	"slices"
	"testing"
)

// ScopeRoute is a route of an interface and the scope it needs; "" is a
// route that needs none and answers 200 whatever its caller lacks.
type ScopeRoute struct {
	Method, Path, Scope string
	Body                any
}

// ScopeMatrix proves that every route refuses, with 403 naming the scope,
// a caller that lacks the route's scope, and lets through (neither 401
// nor 403) a caller that lacks any other. For each of scopes, as returns
// the credential of a caller holding all the others.
func ScopeMatrix(t *testing.T, c *Caller, scopes []string, as func(scopes []string) string, routes []ScopeRoute) {
	t.Helper()
	// Only a refusal is bound to be JSON: what a route lets through may be
	// a PDF.
	lenient := *c
	lenient.Answer = nil
	for _, missing := range scopes {
		cred := as(slices.DeleteFunc(slices.Clone(scopes), func(s string) bool { return s == missing }))
		var rows []Scenario
		for _, rt := range routes {
			row := Scenario{Name: "without " + missing + " " + rt.Method + " " + rt.Path, Method: rt.Method, Path: rt.Path, As: cred, Body: rt.Body}
			switch rt.Scope {
			case missing:
				row.Status, row.Want = 403, []string{missing}
				row.Check = func(t *testing.T, r Reply) {
					if c.Answer != nil {
						for _, p := range c.Answer(rt.Path, r) {
							t.Error(p)
						}
					}
				}
			case "":
				row.Status = 200
			default:
				row.Check = func(t *testing.T, r Reply) {
					if r.Status == 403 || r.Status == 401 {
						t.Fatalf("refused for lacking another scope than %s: %d %s", missing, r.Status, r)
					}
				}
			}
			rows = append(rows, row)
		}
		Run(t, &lenient, rows)
	}
}
