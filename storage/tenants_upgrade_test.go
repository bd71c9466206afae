package storage_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/server/i18n"
	"contracts/signflow"
	"contracts/signflow/secretbox"
	"contracts/storage"

	bolt "go.etcd.io/bbolt"
)

// v3Manifest is testdata/schema-v3.json: what testdata/schema-v3.db,
// written by the schema-version-3 code (testdata/schema-v3/gen.go, whose
// comment tells the story), holds.
type v3Manifest struct {
	MasterKey   string `json:"masterKey"`
	TokenSecret string `json:"tokenSecret"`
	TemplateID  string `json:"templateId"`
	Apps        map[string]struct{ ID, Secret string }
	Keys        map[string]struct{ ID, Secret string }
	Contracts   map[string]string `json:"contracts"`
	Session     struct {
		ContractID string `json:"contractId"`
		Token      string `json:"token"`
	} `json:"session"`
	CabinetToken string `json:"cabinetToken"`
}

// Numbers of the v3 story.
const (
	v3OwnerA   = "301234567"
	v3OwnerB   = "309876543"
	v3OwnerK   = "305555555"
	v3Sole     = "31111111111111" // registered by A while A alone could write; contracts of A and K
	v3Lone     = "31111111111112" // registered by A while A alone could write; no contract
	v3Planted  = "32222222222222" // B's phone, then A's registration; a contract of A
	v3Stray    = "33333333333333" // registered by B; no contract
	v3CompanyG = "401234567"      // claimed by B's app, then made an owner by the admin
	v3CompanyD = "501234567"      // registered by the admin, never given a credential
)

// The migration to schema 4 turns the shared client records of a real
// schema-3 file into owners' records and tenants' claims by the rule of
// storage/tenants_migrate.go, never giving a tenant a phone another tenant
// may have written; and everything reads and works on from there.
func TestUpgradeSharedClientsToTenants(t *testing.T) {
	var m v3Manifest
	data, err := os.ReadFile(filepath.Join("testdata", "schema-v3.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "contracts.db")
	copyFile(t, filepath.Join("testdata", "schema-v3.db"), path)
	if v := schemaOf(t, path); v != 3 {
		t.Fatalf("the fixture has schema version %d, want 3", v)
	}
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatalf("the current code does not open a version-3 file: %v", err)
	}
	defer db.Close()
	if v := schemaOf(t, fmt.Sprintf("%s.pre-v%d.bak", path, storage.CurrentSchema())); v != 3 {
		t.Fatalf("the snapshot has schema %d", v)
	}

	// The records as the rule places them.
	type want struct {
		tenant, in, last, phone string // tenant "" for the owner's record
	}
	holds := []want{
		{"", v3OwnerA, "Alpha Savdo MChJ", "998712000000"},
		{"", v3OwnerB, "Beta Trade LLC", "998712000001"},
		{"", v3OwnerK, "Kappa Key LLC", "998712000002"},
		{"", v3CompanyG, "Planted Gamma", "998909999997"}, // an owner's record is taken as it is
		{v3OwnerA, v3Sole, "Karimov", "998901234567"},     // A alone could have written it
		{v3OwnerK, v3Sole, "Karimov", ""},                 // K used it, but did not write it
		{v3OwnerA, v3Lone, "Yusupova", "998901234568"},    // its only possible writer keeps it
		{v3OwnerA, v3Planted, "Aliyev", ""},               // A or B wrote the phone: nobody gets it
	}
	none := [][2]string{{v3OwnerB, v3Planted}, {v3OwnerB, v3Sole}, {v3OwnerB, v3Stray}, {v3OwnerA, v3Stray},
		{v3OwnerA, v3CompanyD}, {v3OwnerB, v3CompanyD}, {v3OwnerK, v3Lone}}
	err = db.View(func(tx signflow.Tx) error {
		for _, w := range holds {
			var c *signflow.Client
			var err error
			if w.tenant == "" {
				c, err = tx.Owner(w.in)
			} else {
				c, err = tx.Claim(w.tenant, w.in)
			}
			if err != nil || c.Name() == "" || !strings.Contains(c.Name(), w.last) || c.Phone != w.phone {
				t.Errorf("%+v: got %+v %v", w, c, err)
			}
		}
		for _, n := range none {
			if _, err := tx.Claim(n[0], n[1]); signflow.ErrorCode(err) != signflow.ENOTFOUND {
				t.Errorf("tenant %s holds a claim on %s (%v)", n[0], n[1], err)
			}
		}
		for _, in := range []string{v3Sole, v3Planted, v3Stray, v3CompanyD} {
			if _, err := tx.Owner(in); signflow.ErrorCode(err) != signflow.ENOTFOUND {
				t.Errorf("%s became an owner (%v)", in, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Bolt().View(func(btx *bolt.Tx) error {
		var aside []string
		btx.Bucket([]byte("clients_aside")).ForEach(func(k, _ []byte) error { aside = append(aside, string(k)); return nil })
		if !slices.Equal(aside, []string{v3Stray, v3CompanyD}) {
			t.Errorf("kept aside: %v, want the records no tenant received", aside)
		}
		for _, gone := range []string{"clients", "client_names"} {
			if btx.Bucket([]byte(gone)) != nil {
				t.Errorf("bucket %s is still there", gone)
			}
		}
		if k, _ := btx.Bucket([]byte("cabinet_sessions")).Cursor().First(); k != nil {
			t.Error("a cabinet session of schema 3 survived")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	assertIndexesConsistent(t, db)

	box, err := secretbox.New([]byte(m.MasterKey))
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's clock stopped at 09:11; its session lives till 09:32.
	now := func() time.Time { return time.Date(2026, 11, 20, 9, 12, 0, 0, time.UTC) }
	texts := &fixture.SMS{}
	svc := signflow.NewService(db, fixture.Configured(signflow.Options{Now: now, Secret: []byte(m.TokenSecret), Box: box, SMS: texts, Texts: i18n.SMSTexts(nil)}))
	access := func(id string) *signflow.Access {
		var a *signflow.Access
		fixture.Must(t, func() error {
			return db.View(func(tx signflow.Tx) error {
				if app, err := tx.App(id); err == nil {
					a = app.Access()
					return nil
				}
				k, err := tx.Key(id)
				if err == nil {
					a = k.Access()
				}
				return err
			})
		})
		return a
	}
	appA, appB, keyA, keyB, keyK := access(m.Apps["A"].ID), access(m.Apps["B"].ID), access(m.Keys["A"].ID), access(m.Keys["B"].ID), access(m.Keys["K"].ID)

	// Reads show the parties as the creator's tenant knows them.
	v, err := svc.Contract(keyA, m.Contracts["3"])
	if err != nil || v.Buyer == nil || v.Buyer.LastName != "Aliyev" || v.Buyer.Phone != "" {
		t.Fatalf("contract 3 read by A: %+v %v", v.Buyer, err)
	}
	if v, err := svc.Contract(keyK, m.Contracts["2"]); err != nil || v.Buyer == nil || v.Buyer.LastName != "Karimov" {
		t.Fatalf("contract 2 read by K: %+v %v", v, err)
	}
	// The planted phone no longer receives A's codes: A registers the
	// person again, and the code goes to the phone A gives.
	if _, _, err := svc.OpenSession(appA, m.Contracts["3"], signflow.SessionRequest{SignerIN: v3Planted}, signflow.Actor{}); signflow.ErrorCode(err) != signflow.EINVALID {
		t.Fatalf("a session for the person whose phone nobody holds: %v", err)
	}
	if _, err := svc.RegisterClient(appA, &signflow.Client{IN: v3Planted, FirstName: "Bobur", LastName: "Aliyev", Phone: "998907777777"}); err != nil {
		t.Fatal(err)
	}
	_, token, err := svc.OpenSession(appA, m.Contracts["3"], signflow.SessionRequest{SignerIN: v3Planted}, signflow.Actor{})
	if err == nil {
		_, err = svc.SendCode(t.Context(), token, signflow.Actor{})
	}
	if err != nil || texts.Last().Phone != "998907777777" {
		t.Fatalf("A's code after A registered again: %+v %v", texts.Last(), err)
	}
	// The session of schema 3 sends its code to the phone A holds.
	if _, err := svc.SendCode(t.Context(), m.Session.Token, signflow.Actor{}); err != nil || texts.Last().Phone != "998901234567" {
		t.Fatalf("the old session's code: %+v %v", texts.Last(), err)
	}
	// Clients: each tenant finds only its own.
	for _, c := range []struct {
		a     *signflow.Access
		in    string
		found bool
	}{{appB, v3Planted, false}, {appB, v3Stray, false}, {appB, v3Sole, false}, {appA, v3Lone, true}, {keyK, v3Sole, true},
		{appB, v3CompanyG, true}, {appA, v3CompanyD, false}} {
		_, err := svc.FindClient(c.a, c.in)
		if found := err == nil; found != c.found || err != nil && signflow.ErrorCode(err) != signflow.ENOTFOUND {
			t.Errorf("tenant %s finds %s: %v", c.a.OwnerIN, c.in, err)
		}
	}
	// Searches by name find only what the tenant knows.
	for _, c := range []struct {
		a      *signflow.Access
		search string
		n      int
	}{{keyA, "Aliyev", 1}, {keyB, "Aliyev", 0}, {keyK, "Karimov", 1}, {keyA, "Karimov", 1}, {keyB, "Alpha", 2}} {
		if _, n, err := svc.ListContracts(c.a, signflow.ContractQuery{Search: c.search, Size: 10}); err != nil || n != c.n {
			t.Errorf("tenant %s searching %q finds %d (%v), want %d", c.a.OwnerIN, c.search, n, err, c.n)
		}
	}
	// The cabinet: the old cookie is gone; the person logs in with the
	// phone A holds and reaches A's contract, not K's, whose tenant holds
	// no phone for the person.
	cab := svc.Cabinet(signflow.CabinetOptions{IdleTimeout: fixture.CabinetIdle()})
	if _, err := cab.Session(m.CabinetToken); err != signflow.ErrCabinetSession {
		t.Fatalf("a schema-3 cabinet session: %v", err)
	}
	if _, err := cab.SendLoginCode(v3Sole, "en", "browser", signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	code := strings.TrimSuffix(strings.Fields(texts.Last().Text)[4], ".")
	_, s, err := cab.LogIn(v3Sole, code, "browser", signflow.Actor{})
	if err != nil || s.Phone != "998901234567" {
		t.Fatalf("login of the person: %+v %v", s, err)
	}
	list, err := cab.Contracts(s, 0)
	if err != nil || len(list.Open) != 1 || list.Open[0].ID != m.Contracts["1"] {
		t.Fatalf("the person's cabinet: %+v %v", list, err)
	}
	// The admin sets the owner's record right; the admin's values win.
	if o, err := svc.CreateOwner(&signflow.Client{IN: v3CompanyG, Type: signflow.ClientCompany, LegalName: "Gamma Logistics MChJ",
		Phone: "998712000003"}); err != nil || o.LegalName != "Gamma Logistics MChJ" || o.Phone != "998712000003" {
		t.Fatalf("the admin corrects owner G: %+v %v", o, err)
	}
	// The file takes new contracts.
	if _, err := svc.CreateContract(appB, &signflow.ContractInput{TemplateID: m.TemplateID, BuyerIN: v3Stray, Price: 100},
		signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	assertIndexesConsistent(t, db)
}
