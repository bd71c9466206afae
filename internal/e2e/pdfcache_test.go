package e2e

import (
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
)

// TestServePDFCache: the appliance renders the PDF of a contract of 1,000
// products once, however often and through whichever interface it is
// downloaded; /metrics counts the renders and the hits.
func TestServePDFCache(t *testing.T) {
	dir := t.TempDir()
	in := startInstance(t, dir, filepath.Join(dir, "data"), "CONTRACTS_RATELIMIT__APPPERSECOND=0", "CONTRACTS_RATELIMIT__KEYPERSECOND=0")
	p := provision(t, in, "")
	products := make([]map[string]any, 1000)
	for i := range products {
		products[i] = map[string]any{"name": "Televizor " + strconv.Itoa(i), "quantity": 1, "price": 150000}
	}
	var c struct{ ID string }
	mustCall(t, "POST", in.key+"/v1/contracts", jsonBody(map[string]any{"templateId": p.templateID, "buyerIn": loadCustomerIN,
		"price": 150000, "products": products}), &c, "X-API-Key", p.apiKey)
	for i := range 50 {
		for _, get := range []struct{ url, header, value string }{
			{in.embedded, "Authorization", "Bearer " + p.token}, {in.key, "X-API-Key", p.apiKey}} {
			if s := call(t, http.DefaultClient, "GET", get.url+"/v1/contracts/"+c.ID+"/pdf?lang=ru", nil, nil, get.header, get.value); s != 200 {
				t.Fatalf("download %d from %s: %d", i, get.url, s)
			}
		}
	}
	got := scrape(t, in.admin, []string{"contracts_pdf_renders_total", "contracts_pdf_cache_hits_total"})
	for name, want := range map[string]float64{"contracts_pdf_renders_total": 1, "contracts_pdf_cache_hits_total": 99} {
		if got[name] != want {
			t.Errorf("%s = %v, want %v", name, got[name], want)
		}
	}
	in.stop(t)
}
