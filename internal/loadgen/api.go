package loadgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"contracts/assets"
	"contracts/signflow"
)

// Names of the routes that budgets compare.
const (
	nameRead   = "GET /v1/contracts/{id}"
	nameCreate = "POST /v1/contracts"
	nameEcho   = "baseline: bare echo GET /ping"
	nameRaw    = "baseline: raw bbolt Batch put"
)

// Parties of the bench world.
const (
	ownerIN    = "301234567"
	customerIN = "31234567890123"
)

// world is what provisioning made: the URLs and the credentials.
type world struct {
	embedded, key, admin string // base URLs
	adminToken           string
	templateID           string
	appID, appSecret     string
	apiKey               string
	token                string // a bearer token of the app
	client               *http.Client
}

// call makes one JSON request and decodes a 200 answer into out.
func (w *world) call(method, url, auth, ctype string, body []byte, out any) error {
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	if auth != "" {
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return data
}

// provision creates the owner, the demo template, an app, a key and the
// customer through the admin API and the embedded interface.
func provision(c *child, adminToken string, client *http.Client) (*world, error) {
	w := &world{embedded: "http://" + c.addr("embedded"), key: "http://" + c.addr("key"), admin: "http://" + c.addr("admin"),
		adminToken: adminToken, client: client}
	err := w.call("POST", w.admin+"/admin/v1/owners", adminToken, "application/json", mustJSON(map[string]any{
		"in": ownerIN, "type": "COMPANY", "legalName": "Bench Savdo MChJ", "phone": "+998 71 200-00-00"}), nil)
	if err != nil {
		return nil, err
	}
	var tpl struct{ ID string }
	if err := w.call("POST", w.admin+"/admin/v1/templates", adminToken, "application/yaml", assets.DemoTemplate, &tpl); err != nil {
		return nil, err
	}
	w.templateID = tpl.ID
	var app struct{ AppID, AppSecret string }
	if err := w.call("POST", w.admin+"/admin/v1/apps", adminToken, "application/json", mustJSON(map[string]any{
		"name": "Bench shop", "ownerIn": ownerIN, "scopes": signflow.AppScopes, "allTemplates": true}), &app); err != nil {
		return nil, err
	}
	w.appID, w.appSecret = app.AppID, app.AppSecret
	var key struct{ Key string }
	if err := w.call("POST", w.admin+"/admin/v1/keys", adminToken, "application/json", mustJSON(map[string]any{
		"name": "Bench back office", "ownerIn": ownerIN, "scopes": signflow.KeyScopes, "allTemplates": true}), &key); err != nil {
		return nil, err
	}
	w.apiKey = key.Key
	var tok struct{ AccessToken string }
	if err := w.call("POST", w.embedded+"/v1/auth/token", "", "application/json", w.tokenBody(), &tok); err != nil {
		return nil, err
	}
	w.token = tok.AccessToken
	err = w.call("POST", w.embedded+"/v1/clients", w.token, "application/json", mustJSON(map[string]any{
		"in": customerIN, "type": "CLIENT", "firstName": "Aziz", "lastName": "Karimov", "phone": "+998 90 123-45-67"}), nil)
	return w, err
}

// rebind points the world at a restarted server.
func (w *world) rebind(c *child) {
	w.embedded, w.key, w.admin = "http://"+c.addr("embedded"), "http://"+c.addr("key"), "http://"+c.addr("admin")
}

func (w *world) tokenBody() []byte {
	return mustJSON(map[string]string{"appId": w.appID, "appSecret": w.appSecret})
}

// ContractBody is the body of a typical contract of the demo template
// (two values, a product and a payment schedule) sold to the bench's
// customer: what the create route is measured with here, and what the
// embedded interface's handler benchmarks send.
func ContractBody(templateID string) []byte {
	return mustJSON(map[string]any{"templateId": templateID, "buyerIn": customerIN, "price": 1500.25,
		"currency": "UZS", "initialPayment": 100, "deliveryAt": "2026-12-01T10:00:00Z",
		"values": []map[string]any{{"keyName": "deliveryAddress", "value": "Toshkent, Chilonzor 7, 12"},
			{"keyName": "warrantyMonths", "value": "12"}},
		"products": []map[string]any{{"name": "Televizor Samsung 55", "quantity": 1, "price": 1500.25, "values": map[string]any{"color": "black"}}},
		"payments": []map[string]any{{"amount": 700, "paymentDate": "2027-01-01T00:00:00Z"}, {"amount": 700.25, "paymentDate": "2027-02-01T00:00:00Z"}}})
}

// ids collects the contracts the server acknowledged.
type ids struct {
	mu   sync.Mutex
	list []string
}

func (s *ids) add(body []byte) {
	var v struct{ ID string }
	if json.Unmarshal(body, &v) == nil && v.ID != "" {
		s.mu.Lock()
		s.list = append(s.list, v.ID)
		s.mu.Unlock()
	}
}

func (s *ids) snapshot() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.list...)
}

// phases are the routes of the appliance, in the order they run. created
// receives the ids of the contracts made by the create phase; pool is the
// set of contracts the later phases read.
func (w *world) phases(client *http.Client, created *ids, pool func() []string) map[string]phase {
	bearer := func(req *http.Request) *http.Request {
		req.Header.Set("Authorization", "Bearer "+w.token)
		return req
	}
	jsonReq := func(method, url string, body []byte) (*http.Request, error) {
		req, err := http.NewRequest(method, url, bytes.NewReader(body))
		if err == nil {
			req.Header.Set("Content-Type", "application/json")
		}
		return req, err
	}
	pick := func(n int) string {
		p := pool()
		return p[n%len(p)]
	}
	tokenBody, contractBody := w.tokenBody(), ContractBody(w.templateID)
	sessionBody := mustJSON(map[string]string{"signerIn": customerIN, "lang": "en", "parentOrigin": "http://localhost:3000"})
	return map[string]phase{
		"token": {name: "POST /v1/auth/token", op: httpOp(client, 200, func(int) (*http.Request, error) {
			return jsonReq("POST", w.embedded+"/v1/auth/token", tokenBody)
		}, nil)},
		"client": {name: "POST /v1/clients (new client)", op: httpOp(client, 200, func(n int) (*http.Request, error) {
			body := fmt.Sprintf(`{"in":"4%013d","type":"CLIENT","firstName":"Bench","lastName":"Client %d","phone":"+998 90 %07d"}`,
				n, n, n%1e7)
			req, err := jsonReq("POST", w.embedded+"/v1/clients", []byte(body))
			return bearer(req), err
		}, nil)},
		"create": {name: nameCreate, op: httpOp(client, 200, func(int) (*http.Request, error) {
			req, err := jsonReq("POST", w.embedded+"/v1/contracts", contractBody)
			return bearer(req), err
		}, created.add), wrk: &wrkRequest{method: "POST", url: w.embedded + "/v1/contracts", header: "Authorization: Bearer " + w.token, body: contractBody}},
		"read": {name: nameRead, op: httpOp(client, 200, func(n int) (*http.Request, error) {
			req, err := http.NewRequest("GET", w.embedded+"/v1/contracts/"+pick(n), nil)
			return bearer(req), err
		}, nil)},
		"list": {name: "GET /v1/contracts?size=20 (key)", op: httpOp(client, 200, func(n int) (*http.Request, error) {
			req, err := http.NewRequest("GET", w.key+"/v1/contracts?page="+fmt.Sprint(n%5)+"&size=20", nil)
			if err == nil {
				req.Header.Set("X-API-Key", w.apiKey)
			}
			return req, err
		}, nil)},
		"session": {name: "POST /v1/contracts/{id}/sign-sessions", op: httpOp(client, 200, func(n int) (*http.Request, error) {
			req, err := jsonReq("POST", w.embedded+"/v1/contracts/"+pick(n)+"/sign-sessions", sessionBody)
			return bearer(req), err
		}, nil)},
		"pdf": {name: "GET /v1/contracts/{id}/pdf", op: httpOp(client, 200, func(n int) (*http.Request, error) {
			req, err := http.NewRequest("GET", w.embedded+"/v1/contracts/"+pick(n)+"/pdf?lang=en", nil)
			return bearer(req), err
		}, nil)},
	}
}

// Routes are the route phases in the order they run; "echo" and "read"
// run back to back so the ratio compares like with like.
var Routes = []string{"token", "client", "create", "session", "pdf", "list", "echo", "read"}

func validRoutes(list []string) error {
	for _, r := range list {
		if !strings.Contains(" "+strings.Join(Routes, " ")+" raw ", " "+r+" ") {
			return fmt.Errorf("unknown route %q (routes: %s, raw)", r, strings.Join(Routes, ", "))
		}
	}
	return nil
}
