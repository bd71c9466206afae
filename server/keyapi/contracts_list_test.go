package keyapi

import (
	"contracts/internal/apitest"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// page is a decoded contract page.
type page struct {
	Content       []map[string]any `json:"content"`
	TotalElements int              `json:"totalElements"`
	TotalPages    int              `json:"totalPages"`
	Number        int              `json:"number"`
	Size          int              `json:"size"`
}

func (p page) ids() []string {
	out := []string{}
	for _, c := range p.Content {
		out = append(out, c["id"].(string))
	}
	return out
}

// list gets GET /v1/contracts?query and decodes the page.
func (e *env) list(t testing.TB, key, query string) page {
	t.Helper()
	var header []string
	if strings.Contains(query, ",") {
		// Comma-separated statuses are a leniency the document does not describe.
		header = []string{apitest.HeaderInvalidRequest, "1"}
	}
	r := e.do("GET", "/v1/contracts?"+query, key, nil, header...)
	if r.Status != 200 {
		t.Fatalf("list %s: %d %s", query, r.Status, r)
	}
	e.api.Check(t, "/v1/contracts", r)
	var p page
	if err := json.Unmarshal([]byte(r.Body), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// register adds a client for the searches, as owner A's tenant knows it.
func (e *env) register(c *signflow.Client) {
	e.t.Helper()
	fixture.MustClaim(e.t, e.Service, fixture.OwnerIN, c)
}

// reversed is ids newest first.
func reversed(ids []string) []string { out := slices.Clone(ids); slices.Reverse(out); return out }

func TestListPaging(t *testing.T) {
	e := newEnv(t, 0)
	k := e.KeyA.Secret
	var ids []string // oldest first
	for i := 0; i < 45; i++ {
		ids = append(ids, e.create(k, e.sale("price", 1000+i)))
	}
	newest := reversed(ids)
	e.create(e.KeyB.Secret, e.sale()) // another owner's: never listed
	for _, sc := range []struct {
		name                     string
		query                    string
		want                     []string
		number, size, totalPages int
	}{
		{name: "defaults", want: newest[:20], size: 20, totalPages: 3},
		{name: "second page", query: "page=1", want: newest[20:40], number: 1, size: 20, totalPages: 3},
		{name: "last, partial page", query: "page=2", want: newest[40:], number: 2, size: 20, totalPages: 3},
		{name: "page past the end", query: "page=3", want: []string{}, number: 3, size: 20, totalPages: 3},
		{name: "far past the end", query: "page=9223372036854775807&size=100", want: []string{}, number: 9223372036854775807, size: 100, totalPages: 1},
		{name: "size 7, page 6", query: "size=7&page=6", want: newest[42:], number: 6, size: 7, totalPages: 7},
		{name: "size 100", query: "size=100", want: newest, size: 100, totalPages: 1},
		{name: "size over 100 is clamped", query: "size=101", want: newest, size: 100, totalPages: 1},
		{name: "size 1", query: "size=1&page=44", want: newest[44:], number: 44, size: 1, totalPages: 45},
	} {
		t.Run(sc.name, func(t *testing.T) {
			p := e.list(t, k, sc.query)
			if !slices.Equal(p.ids(), sc.want) || p.TotalElements != 45 || p.TotalPages != sc.totalPages ||
				p.Number != sc.number || p.Size != sc.size {
				t.Fatalf("got %d items (%v…), total %d, pages %d, number %d, size %d", len(p.Content), first(p.ids()),
					p.TotalElements, p.TotalPages, p.Number, p.Size)
			}
		})
	}
	// List items: values empty, money in minor units, the read response's shape.
	item := e.list(t, k, "size=1").Content[0]
	if v, ok := item["values"].([]any); !ok || len(v) != 0 || item["price"] != float64(1044) || item["buyer"] == nil {
		t.Fatalf("list item %v", item)
	}
	apitest.Run(t, e.api, []apitest.Scenario{
		{Name: "negative page", Method: "GET", Path: "/v1/contracts?page=-1", As: k, Status: 400, Want: []string{"page: must be 0 or more"}},
		{Name: "size 0", Method: "GET", Path: "/v1/contracts?size=0", As: k, Status: 400, Want: []string{"size: must be 1 or more"}},
		{Name: "negative size", Method: "GET", Path: "/v1/contracts?size=-5", As: k, Status: 400},
		{Name: "page not an integer", Method: "GET", Path: "/v1/contracts?page=abc", As: k, Status: 400,
			Want: []string{"page: must be an integer"}},
		{Name: "size a fraction", Method: "GET", Path: "/v1/contracts?size=1.5", As: k, Status: 400, Want: []string{"size: must be an integer"}},
		{Name: "page beyond int64", Method: "GET", Path: "/v1/contracts?page=99999999999999999999", As: k, Status: 400},
		{Name: "unknown status", Method: "GET", Path: "/v1/contracts?statuses=DONE", As: k, Status: 400, Want: []string{"statuses"}},
		{Name: "template not a UUID", Method: "GET", Path: "/v1/contracts?templateId=x", As: k, Status: 400, Want: []string{"templateId"}},
		{Name: "search too long", Method: "GET", Path: "/v1/contracts?search=" + strings.Repeat("a", 201), As: k, Status: 400,
			Want: []string{"search: at most 200 characters"}},
	})
	// An owner with no contracts gets an empty page, not null.
	if p := e.list(t, e.key(signflow.KeyScopes, e.Other.ID), ""); p.TotalElements != 0 || p.TotalPages != 0 || p.Content == nil {
		t.Fatalf("empty list: %+v", p)
	}
}

func first(ids []string) []string { return ids[:min(len(ids), 2)] }

func TestListFilters(t *testing.T) {
	e := newEnv(t, 0)
	k := e.KeyA.Secret
	created := e.create(k, e.sale())
	cancelled := e.create(k, e.sale())
	e.do("POST", "/v1/contracts/"+cancelled+"/cancel", k, nil)
	active := e.create(k, e.sale())
	e.activate(active)
	otherTemplate := e.create(k, e.sale("templateId", e.Other.ID))
	// Owner A takes part in B's contract without creating it: listed for A.
	fromB := e.create(e.KeyB.Secret, e.sale("buyerIn", fixture.OwnerIN))
	onlyB := e.create(e.KeyB.Secret, e.sale())
	all := []string{fromB, otherTemplate, active, cancelled, created}
	for _, sc := range []struct {
		name, key, query string
		want             []string
	}{
		{name: "everything of the owner, newest first", key: k, want: all},
		{name: "one status", key: k, query: "statuses=CANCELLED", want: []string{cancelled}},
		{name: "repeated statuses", key: k, query: "statuses=ACTIVE&statuses=CANCELLED", want: []string{active, cancelled}},
		{name: "comma-separated statuses", key: k, query: "statuses=ACTIVE,CANCELLED", want: []string{active, cancelled}},
		{name: "status nobody has", key: k, query: "statuses=REJECTED", want: []string{}},
		{name: "template", key: k, query: "templateId=" + e.Other.ID, want: []string{otherTemplate}},
		{name: "template and status", key: k, query: "templateId=" + e.Template.ID + "&statuses=CREATED", want: []string{fromB, created}},
		{name: "limited key sees its template only", key: e.LimitedKey.Secret, want: []string{fromB, active, cancelled, created}},
		{name: "limited key asking for another template", key: e.LimitedKey.Secret, query: "templateId=" + e.Other.ID, want: []string{}},
		{name: "other owner", key: e.KeyB.Secret, want: []string{onlyB, fromB}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			if p := e.list(t, sc.key, sc.query); !slices.Equal(p.ids(), sc.want) || p.TotalElements != len(sc.want) {
				t.Fatalf("got %v (total %d), want %v", p.ids(), p.TotalElements, sc.want)
			}
		})
	}
}

func TestListSearch(t *testing.T) {
	e := newEnv(t, 0)
	k := e.KeyA.Secret
	e.register(&signflow.Client{IN: "31111111111111", FirstName: "Dilnoza", LastName: "Rahimova", MidName: "Akmalovna", Phone: "998901110000"})
	e.register(&signflow.Client{IN: "31111122222222", FirstName: "Dilshod", LastName: "Rahimov", Phone: "998901110001"})
	e.register(&signflow.Client{IN: "402222222", Type: signflow.ClientCompany, LegalName: "Gamma-Savdo Trade"})
	dilnoza := e.create(k, e.sale("buyerIn", "31111111111111"))
	dilshod := e.create(k, e.sale("buyerIn", "31111122222222"))
	gamma := e.create(k, e.sale("buyerIn", "402222222"))
	aziz := e.create(k, e.sale())
	dilnoza2 := e.create(k, e.sale("buyerIn", "31111111111111", "templateId", e.Other.ID))
	// B's contract with the same person, whom B's tenant knows by another name.
	fixture.MustClaim(t, e.Service, fixture.OtherIN, &signflow.Client{IN: "31111111111111", FirstName: "Nodira", LastName: "Qodirova", Phone: "998909999999"})
	theirs := e.create(e.KeyB.Secret, e.sale("buyerIn", "31111111111111"))
	number := func(id string) (n string) {
		fixture.Must(t, func() error {
			return e.DB.View(func(tx signflow.Tx) error { c, err := tx.Contract(id); n = c.Number; return err })
		})
		return n
	}
	for _, sc := range []struct {
		name, key, search string
		want              []string
	}{
		{name: "contract number", key: k, search: number(dilshod), want: []string{dilshod}},
		{name: "another owner's contract number", key: k, search: number(theirs), want: []string{}},
		{name: "party number", key: k, search: "31111111111111", want: []string{dilnoza2, dilnoza}},
		{name: "party number prefix", key: k, search: "311111", want: []string{dilnoza2, dilshod, dilnoza}},
		{name: "company number", key: k, search: "402222222", want: []string{gamma}},
		{name: "name word prefix", key: k, search: "dil", want: []string{dilnoza2, dilshod, dilnoza}},
		{name: "two words", key: k, search: "Rahimova Dilnoza", want: []string{dilnoza2, dilnoza}},
		{name: "two word prefixes, any order", key: k, search: "dilsh rahim", want: []string{dilshod}},
		{name: "patronymic", key: k, search: "akmal", want: []string{dilnoza2, dilnoza}},
		{name: "company name with a dash", key: k, search: "gamma-savdo", want: []string{gamma}},
		{name: "last name", key: k, search: "Karimov", want: []string{aziz}},
		{name: "no match", key: k, search: "Zafar", want: []string{}},
		{name: "limited key", key: e.LimitedKey.Secret, search: "Dilnoza", want: []string{dilnoza}},
		{name: "other owner sees its own", key: e.KeyB.Secret, search: "nodira", want: []string{theirs}},
		{name: "another tenant's name for the party", key: k, search: "nodira", want: []string{}},
		{name: "A's name for the party, searched by B", key: e.KeyB.Secret, search: "dilnoza", want: []string{}},
	} {
		t.Run(sc.name, func(t *testing.T) {
			p := e.list(t, sc.key, "search="+url.QueryEscape(sc.search))
			if !slices.Equal(p.ids(), sc.want) || p.TotalElements != len(sc.want) {
				t.Fatalf("search %q: got %v (total %d), want %v", sc.search, p.ids(), p.TotalElements, sc.want)
			}
		})
	}
	// Search combines with the other filters and pages.
	if p := e.list(t, k, fmt.Sprintf("search=dil&templateId=%s&size=1&page=1", e.Template.ID)); !slices.Equal(p.ids(), []string{dilnoza}) ||
		p.TotalElements != 2 || p.TotalPages != 2 {
		t.Fatalf("search with template and paging: %+v", p)
	}
}
