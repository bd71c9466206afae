//go:build ignore

// Command gen writes schema-v3.db and schema-v3.json, the fixture of the
// tenant migration test (storage/tenants_upgrade_test.go): a database
// written by the schema-version-3 code (commit b388011, the last whose
// client records are shared between tenants), with client records written
// by apps of two tenants, the admin and nobody in particular, and the
// contracts that name them. It must be run against that commit, in a copy,
// never against the current tree:
//
//	mkdir /tmp/v3 && git -C /path/to/contracts archive b388011 | tar -x -C /tmp/v3 && cd /tmp/v3
//	mkdir -p cmd/genv3 && cp /path/to/contracts/storage/testdata/schema-v3/gen.go cmd/genv3/main.go
//	sed -i '/^\/\/go:build ignore/d' cmd/genv3/main.go
//	go run ./cmd/genv3 /path/to/contracts/storage/testdata
//
// The story, one minute apart on the fixture's clock:
//
//	t0  the admin registers owners A (Alpha), B (Beta) and K (Kappa).
//	t1  app A and key A (owner A), key K (owner K; K never has an app).
//	t2  app A registers "sole" and "lone"; A creates contract 1 with sole
//	    (a session is opened), K's key creates contract 2 with sole.
//	t3  app B (owner B) is created.
//	t4  app B registers "planted" with its own phone.
//	t5  app A registers "planted" with the real phone: the record keeps B's
//	    phone (held data is never overwritten) and gains A's middle name.
//	t6  A creates contract 3 with planted; its SMS code goes to B's phone.
//	t7  app B registers "stray" (no contract ever names it).
//	t8  app B registers company G with its own name and phone; the admin
//	    then registers G as an owner (the app's values stay) and gives it a key.
//	t9  the admin registers company D as an owner but gives it no credential.
//	t10 key A creates contract 4 with owner B as the buyer; app B creates
//	    contract 5 with owner A as the buyer.
//	t11 sole logs into the cabinet (a login record and a cabinet session).
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"contracts/signflow"
	"contracts/signflow/seal"
	"contracts/storage"
)

const tokenSecret = "schema-v3 fixture token secret"

// Numbers of the story.
const (
	ownerA    = "301234567"
	ownerB    = "309876543"
	ownerK    = "305555555"
	soleIN    = "31111111111111"
	loneIN    = "31111111111112"
	plantedIN = "32222222222222"
	strayIN   = "33333333333333"
	companyG  = "401234567"
	companyD  = "501234567"
)

var masterKey = bytes.Repeat([]byte("m"), 32)

type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// sms keeps every message.
type sms struct {
	mu   sync.Mutex
	sent []message
}

type message struct{ Phone, Text string }

func (s *sms) Send(_ context.Context, phone, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sent = append(s.sent, message{phone, text})
	return nil
}

func (s *sms) lastCode() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range strings.FieldsFunc(s.sent[len(s.sent)-1].Text, func(r rune) bool { return r < '0' || r > '9' }) {
		if len(f) == 5 {
			return f
		}
	}
	return ""
}

// Manifest is what the test needs to read the file back.
type Manifest struct {
	Commit      string            `json:"commit"`
	Schema      int               `json:"schema"`
	MasterKey   string            `json:"masterKey"`
	TokenSecret string            `json:"tokenSecret"`
	TemplateID  string            `json:"templateId"`
	Apps        map[string]Cred   `json:"apps"` // by owner letter
	Keys        map[string]Cred   `json:"keys"`
	Contracts   map[string]string `json:"contracts"` // "1".."5" -> id
	Session     struct {
		ContractID string `json:"contractId"`
		Token      string `json:"token"`
	} `json:"session"`
	CabinetToken string              `json:"cabinetToken"`
	SMS          []message           `json:"sms"`
	Records      map[string]*Written `json:"records"` // the shared client records as written, by number
}

// Cred is an app's or key's id and secret.
type Cred struct{ ID, Secret string }

// Written is a client record as the v3 file holds it.
type Written struct {
	FirstName, LastName, MidName, LegalName, Phone string
}

func main() {
	dir := os.Args[1]
	path := filepath.Join(dir, "schema-v3.db")
	os.Remove(path)
	db, err := storage.Open(path, storage.Options{})
	check(err)
	box, err := seal.New(masterKey)
	check(err)
	clk := &clock{now: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	texts := &sms{}
	svc := signflow.NewService(db, signflow.Options{Now: clk.Now, Secret: []byte(tokenSecret), Sealer: box, SMS: texts,
		SessionTTL: 30 * time.Minute, OTPTTL: 5 * time.Minute})
	m := &Manifest{Commit: "b388011", Schema: 3, MasterKey: string(masterKey), TokenSecret: tokenSecret,
		Apps: map[string]Cred{}, Keys: map[string]Cred{}, Contracts: map[string]string{}, Records: map[string]*Written{}}
	actor := signflow.Actor{IP: "192.0.2.10", UserAgent: "schema-v3 generator"}
	tick := func() { clk.now = clk.now.Add(time.Minute) }
	register := func(c signflow.Client) {
		_, err := svc.RegisterClient(&c)
		check(err)
	}
	access := func(id string) *signflow.Access {
		var a *signflow.Access
		check(db.View(func(tx signflow.Tx) error {
			if app, err := tx.App(id); err == nil {
				a = app.Access()
				return nil
			}
			k, err := tx.Key(id)
			if err == nil {
				a = k.Access()
			}
			return err
		}))
		return a
	}

	// t0
	register(signflow.Client{IN: ownerA, Type: signflow.ClientCompany, LegalName: "Alpha Savdo MChJ", Phone: "998712000000"})
	register(signflow.Client{IN: ownerB, Type: signflow.ClientCompany, LegalName: "Beta Trade LLC", Phone: "998712000001"})
	register(signflow.Client{IN: ownerK, Type: signflow.ClientCompany, LegalName: "Kappa Key LLC", Phone: "998712000002"})
	def, err := signflow.ParseTemplateDefinition([]byte(templateYAML), true)
	check(err)
	tpl, err := svc.CreateTemplate(def)
	check(err)
	m.TemplateID = tpl.ID
	cred := func(create func(*signflow.CredentialInput) (*signflow.NewCredential, error), owner string, scopes []string) Cred {
		c, err := create(&signflow.CredentialInput{Name: "fixture " + owner, OwnerIN: owner, Scopes: scopes, AllTemplates: true})
		check(err)
		return Cred{c.ID, c.Secret}
	}

	tick() // t1
	m.Apps["A"] = cred(svc.CreateApp, ownerA, signflow.AppScopes)
	m.Keys["A"] = cred(svc.CreateKey, ownerA, signflow.KeyScopes)
	m.Keys["K"] = cred(svc.CreateKey, ownerK, signflow.KeyScopes)
	appA, keyA, keyK := access(m.Apps["A"].ID), access(m.Keys["A"].ID), access(m.Keys["K"].ID)
	contract := func(a *signflow.Access, buyer string) string {
		c, err := svc.CreateContract(a, &signflow.ContractInput{TemplateID: tpl.ID, BuyerIN: buyer, Price: 150000050, Currency: "UZS"}, actor)
		check(err)
		return c.ID
	}

	tick() // t2
	register(signflow.Client{IN: soleIN, FirstName: "Aziz", LastName: "Karimov", Phone: "998901234567", Passport: "AA1234567"})
	register(signflow.Client{IN: loneIN, FirstName: "Lola", LastName: "Yusupova", Phone: "998901234568"})
	m.Contracts["1"] = contract(appA, soleIN)
	_, token, err := svc.OpenSession(appA, m.Contracts["1"], signflow.SessionRequest{SignerIN: soleIN, Lang: "en"}, actor)
	check(err)
	m.Session.ContractID, m.Session.Token = m.Contracts["1"], token
	m.Contracts["2"] = contract(keyK, soleIN)

	tick() // t3
	m.Apps["B"] = cred(svc.CreateApp, ownerB, signflow.AppScopes)
	m.Keys["B"] = cred(svc.CreateKey, ownerB, signflow.KeyScopes)
	appB := access(m.Apps["B"].ID)

	tick() // t4
	register(signflow.Client{IN: plantedIN, FirstName: "Bobur", LastName: "Aliyev", Phone: "998909999999"})
	tick() // t5
	register(signflow.Client{IN: plantedIN, FirstName: "Bobur", LastName: "Aliyev", MidName: "Anvarovich", Phone: "998907777777"})
	tick() // t6
	m.Contracts["3"] = contract(appA, plantedIN)
	_, token3, err := svc.OpenSession(appA, m.Contracts["3"], signflow.SessionRequest{SignerIN: plantedIN, Lang: "en"}, actor)
	check(err)
	_, err = svc.SendCode(context.Background(), token3, actor)
	check(err)

	tick() // t7
	register(signflow.Client{IN: strayIN, FirstName: "Sardor", LastName: "Stray", Phone: "998909999998"})

	tick() // t8
	register(signflow.Client{IN: companyG, Type: signflow.ClientCompany, LegalName: "Planted Gamma", Phone: "998909999997"})
	register(signflow.Client{IN: companyG, Type: signflow.ClientCompany, LegalName: "Gamma Logistics MChJ", Phone: "998712000003"})
	m.Keys["G"] = cred(svc.CreateKey, companyG, signflow.KeyScopes)

	tick() // t9
	register(signflow.Client{IN: companyD, Type: signflow.ClientCompany, LegalName: "Delta Invest", Phone: "998712000004"})

	tick() // t10
	m.Contracts["4"] = contract(keyA, ownerB)
	m.Contracts["5"] = contract(appB, ownerA)

	tick() // t11
	cab := svc.Cabinet(signflow.CabinetOptions{})
	_, err = cab.SendLoginCode(context.Background(), soleIN, "en")
	check(err)
	m.CabinetToken, _, err = cab.LogIn(soleIN, texts.lastCode(), actor)
	check(err)

	check(db.View(func(tx signflow.Tx) error {
		for _, in := range []string{ownerA, ownerB, ownerK, soleIN, loneIN, plantedIN, strayIN, companyG, companyD} {
			c, err := tx.Client(in)
			if err != nil {
				return err
			}
			m.Records[in] = &Written{c.FirstName, c.LastName, c.MidName, c.LegalName, c.Phone}
		}
		return nil
	}))
	m.SMS = texts.sent
	v, err := db.SchemaVersion()
	check(err)
	if v != 3 {
		check(fmt.Errorf("schema version %d: run this against the version-3 commit", v))
	}
	check(db.Close())
	out, err := json.MarshalIndent(m, "", "  ")
	check(err)
	check(os.WriteFile(filepath.Join(dir, "schema-v3.json"), append(out, '\n'), 0o644))
	fmt.Printf("wrote %s: %d contracts, %d records\n", path, len(m.Contracts), len(m.Records))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

const templateYAML = `name: {uz: "Oldi-sotdi shartnomasi", ru: "Договор купли-продажи", en: "Sales contract"}
sellerName: {uz: "Sotuvchi", ru: "Продавец", en: "Seller"}
buyerName: {uz: "Xaridor", ru: "Покупатель", en: "Buyer"}
body:
  uz: "{{seller.name}} va {{buyer.name}}"
  ru: "{{seller.name}} и {{buyer.name}}"
  en: "{{seller.name}} and {{buyer.name}}"
`
