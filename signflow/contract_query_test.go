package signflow_test

import (
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// A list query's bounds hold for every caller, the key interface's list
// and the administrator's alike, with one message each.
func TestContractQueryBounds(t *testing.T) {
	w := fixture.NewStandard(t)
	w.Contract(t)
	key := w.Access(t, w.KeyA)
	long := strings.Repeat("я", signflow.MaxSearch)
	for _, sc := range []struct {
		name string
		q    signflow.ContractQuery
		want string
	}{
		{"negative page", signflow.ContractQuery{Page: -1, Size: 20}, "page: must be 0 or more"},
		{"size 0", signflow.ContractQuery{Size: 0}, "size: must be 1 or more"},
		{"search over the bound", signflow.ContractQuery{Size: 20, Search: long + "a"}, "search: at most 200 characters"},
		{"unknown status", signflow.ContractQuery{Size: 20, Statuses: []string{"DONE"}}, `statuses: unknown status "DONE"`},
		{"template not a UUID", signflow.ContractQuery{Size: 20, TemplateID: "x"}, "templateId: must be a UUID"},
		{"search at the bound", signflow.ContractQuery{Size: 20, Search: long}, ""},
		{"first page", signflow.ContractQuery{Size: 1}, ""},
	} {
		t.Run(sc.name, func(t *testing.T) {
			_, keyTotal, keyErr := w.Service.ListContracts(key, sc.q)
			_, adminTotal, adminErr := w.Service.AdminContracts(sc.q)
			for who, err := range map[string]error{"key": keyErr, "admin": adminErr} {
				if sc.want == "" && err != nil || sc.want != "" && (signflow.ErrorCode(err) != signflow.EINVALID || signflow.ErrorMessage(err) != sc.want) {
					t.Errorf("%s list: %v, want %q", who, err, sc.want)
				}
			}
			if sc.want == "" && sc.q.Search == "" && (keyTotal != 1 || adminTotal != 1) {
				t.Errorf("totals %d and %d, want 1", keyTotal, adminTotal)
			}
		})
	}
}
