package e2e

import (
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"contracts/signflow"
	"contracts/signflow/eimzo/eimzotest"
	"contracts/storage/postgres"
	"contracts/storage/postgres/pgtest"
)

// cluster is a PostgreSQL database that "contracts serve" nodes share,
// with the secrets every node must be given alike.
type cluster struct {
	url, adminToken, masterKey string
	env                        []string // set on every node
}

func newCluster(t *testing.T, env ...string) *cluster {
	t.Helper()
	c := &cluster{url: pgtest.NewDatabase(t), adminToken: signflow.RandomToken(32), masterKey: signflow.RandomToken(32)}
	c.env = append([]string{"CONTRACTS_DATA__DRIVER=postgres", "CONTRACTS_DATA__POSTGRES__URL=" + c.url,
		"CONTRACTS_ADMIN__TOKEN=" + c.adminToken, "CONTRACTS_SECRETS__MASTERKEY=" + c.masterKey,
		"CONTRACTS_RATELIMIT__TOKENPERMINUTE=0", "CONTRACTS_RATELIMIT__APPPERSECOND=0", "CONTRACTS_RATELIMIT__OTPPERMINUTE=0"}, env...)
	return c
}

// node starts a node in this process, each in a directory of its own.
func (c *cluster) node(t *testing.T) *instance {
	t.Helper()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	return c.instance(t, data, run(t, dir, instanceEnv(data, c.env), instanceArgs...))
}

// binaryNode starts a node as a process of its own (for kill -9).
func (c *cluster) binaryNode(t *testing.T) *instance {
	t.Helper()
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	return c.instance(t, data, startBinary(t, dir, instanceEnv(data, c.env), instanceArgs...))
}

func (c *cluster) instance(t *testing.T, dataDir string, p *proc) *instance {
	t.Helper()
	addrs := p.listening(t)
	return &instance{proc: p, embedded: "http://" + addrs["embedded"], key: "http://" + addrs["key"],
		admin: "http://" + addrs["admin"], adminToken: c.adminToken, dataDir: dataDir}
}

// store opens the cluster's database as one more process would.
func (c *cluster) store(t *testing.T) *postgres.Store { return pgtest.OpenURL(t, c.url) }

// assertNoFiles checks that a node kept nothing in its data directory.
func assertNoFiles(t *testing.T, in *instance) {
	t.Helper()
	entries, err := os.ReadDir(in.dataDir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("a postgres node wrote %s into its data directory", e.Name())
	}
}

// ownerSignature prepares the owner's E-IMZO signature of the contract
// through a node: the session's token and the PKCS #7 to post.
func ownerSignature(t *testing.T, in *instance, p *provisioned, id string) (token, p7 string) {
	t.Helper()
	var s struct{ URL string }
	mustCall(t, "POST", in.embedded+"/v1/contracts/"+id+"/sign-sessions", jsonBody(map[string]string{"signerIn": loadOwnerIN, "lang": "en"}),
		&s, "Authorization", "Bearer "+p.token)
	token = s.URL[strings.LastIndex(s.URL, "/")+1:]
	status, page := httpCall(t, "GET", in.embedded+"/sign/"+token, "", "", "")
	m := regexp.MustCompile(`"data64":"([^"]+)"`).FindStringSubmatch(page)
	if status != 200 || m == nil {
		t.Fatalf("E-IMZO signing page: %d, no data64", status)
	}
	hash, err := base64.StdEncoding.DecodeString(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return token, eimzotest.Sign(string(hash), eimzotest.Key{TIN: loadOwnerIN, CN: "ALPHA SAVDO MCHJ"})
}

// customerCode opens the customer's SMS session through a node and has
// the code sent: the session's token and the code.
func customerCode(t *testing.T, in *instance, p *provisioned, id string) (token, code string) {
	t.Helper()
	var s struct{ URL string }
	mustCall(t, "POST", in.embedded+"/v1/contracts/"+id+"/sign-sessions", jsonBody(map[string]string{"signerIn": loadCustomerIN, "lang": "en"}),
		&s, "Authorization", "Bearer "+p.token)
	token = s.URL[strings.LastIndex(s.URL, "/")+1:]
	before := len(smsTo(in, customerPhone))
	if status, body := httpCall(t, "POST", in.embedded+"/sign/"+token+"/code", "", "application/json", "{}"); status != 200 {
		t.Fatalf("send code: %d %s", status, body)
	}
	return token, smsCode(t, in, customerPhone, before)
}

// status is a request's status code, for the checks that credentials
// work or fail.
func status(t *testing.T, method, url string, header ...string) int {
	t.Helper()
	return call(t, http.DefaultClient, method, url, nil, nil, header...)
}

// view reads the store in one transaction that must succeed.
func view(t *testing.T, s signflow.Store, fn func(tx signflow.Tx) error) {
	t.Helper()
	if err := s.View(fn); err != nil {
		t.Fatal(err)
	}
}

// cabinetCSRF is the CSRF token of a logged-in cabinet client's session,
// as the cabinet page served by the node gives it.
func cabinetCSRF(t *testing.T, cab *http.Client, in *instance) string {
	t.Helper()
	resp, err := cab.Get(in.key + "/cabinet?lang=en")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	page, _ := io.ReadAll(resp.Body)
	var cfg struct{ CSRF string }
	if m := cabinetConfigRE.FindSubmatch(page); m == nil || json.Unmarshal(m[1], &cfg) != nil || cfg.CSRF == "" {
		t.Fatalf("cabinet page: %d, no CSRF token", resp.StatusCode)
	}
	return cfg.CSRF
}
