//go:build ignore

// Command gen writes schema-v1.db and schema-v1.json, the fixture of
// storage/upgrade_test.go: a small database written by the version-1 code
// (commit 874dfc1, whose storage/migrate.go has one migration), with
// contracts in every state, sessions, audit events and webhook deliveries,
// and a manifest of what it holds. It must be run against that commit, in
// a clone, never against the current tree:
//
//	git clone /path/to/contracts /tmp/v1 && cd /tmp/v1 && git checkout 874dfc1
//	mkdir -p cmd/genv1 && cp /path/to/contracts/storage/testdata/schema-v1/gen.go cmd/genv1/main.go
//	sed -i '/^\/\/go:build ignore/d' cmd/genv1/main.go
//	go run ./cmd/genv1 /path/to/contracts/storage/testdata
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

// The secrets the test needs to read the file back.
const (
	tokenSecret = "schema-v1 fixture token secret"
	ownerIN     = "301234567"
	customerIN  = "31234567890123"
	otherIN     = "31234567890124"
)

var masterKey = bytes.Repeat([]byte("m"), 32)

// clock is the fixture's service clock, moved by hand.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

// sms keeps the last code sent.
type sms struct {
	mu   sync.Mutex
	last string
}

func (s *sms) Send(_ context.Context, _, text string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r < '0' || r > '9' }) {
		if len(f) == 5 {
			s.last = f
		}
	}
	return nil
}

// eimzo accepts any signature as the signer's own.
type eimzo struct{}

func (eimzo) Verify(_ context.Context, _, _, signerIN string) (*signflow.SignerCertificate, error) {
	return &signflow.SignerCertificate{SerialNumber: "01", CommonName: "Alpha Savdo MChJ", TIN: signerIN}, nil
}

// Manifest is what the test checks after the upgrade.
type Manifest struct {
	Commit        string             `json:"commit"`
	Schema        int                `json:"schema"`
	MasterKey     string             `json:"masterKey"`
	TokenSecret   string             `json:"tokenSecret"`
	OwnerIN       string             `json:"ownerIn"`
	CustomerIN    string             `json:"customerIn"`
	TemplateID    string             `json:"templateId"`
	AppID         string             `json:"appId"`
	AppSecret     string             `json:"appSecret"`
	AppWebhook    string             `json:"appWebhookSecret"`
	KeyID         string             `json:"keyId"`
	APIKey        string             `json:"apiKey"`
	Contracts     []ManifestContract `json:"contracts"`
	Sessions      []ManifestSession  `json:"sessions"`
	Deliveries    []ManifestDelivery `json:"deliveries"`
	PendingBefore int                `json:"pendingDeliveries"`
}

type ManifestContract struct {
	ID, Number, Status, BuyerStatus, SellerStatus string
	AuditEvents                                   int
}

type ManifestSession struct {
	ID, ContractID, Token, Status string
}

type ManifestDelivery struct {
	ID, Event, ContractID, Target, Status string
	Attempts                              int
}

func main() {
	dir := os.Args[1]
	path := filepath.Join(dir, "schema-v1.db")
	os.Remove(path)
	db, err := storage.Open(path, storage.Options{})
	check(err)
	box, err := seal.New(masterKey)
	check(err)
	clk := &clock{now: time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)}
	texts := &sms{}
	svc := signflow.NewService(db, signflow.Options{Now: clk.Now, Secret: []byte(tokenSecret), Sealer: box, SMS: texts,
		SessionTTL: 30 * time.Minute, OTPTTL: 5 * time.Minute, EIMZO: eimzo{},
		Methods: map[string]bool{signflow.MethodEIMZO: true}})
	m := &Manifest{Commit: "874dfc1", Schema: 1, MasterKey: string(masterKey), TokenSecret: tokenSecret, OwnerIN: ownerIN, CustomerIN: customerIN}
	actor := signflow.Actor{IP: "192.0.2.10", UserAgent: "schema-v1 generator"}

	_, err = svc.RegisterClient(&signflow.Client{IN: ownerIN, Type: signflow.ClientCompany, LegalName: "Alpha Savdo MChJ", Phone: "+998 71 200-00-00"})
	check(err)
	_, err = svc.RegisterClient(&signflow.Client{IN: customerIN, FirstName: "Aziz", LastName: "Karimov", Phone: "+998 90 123-45-67"})
	check(err)
	_, err = svc.RegisterClient(&signflow.Client{IN: otherIN, FirstName: "Dilnoza", LastName: "Yusupova", Phone: "+998 90 765-43-21"})
	check(err)
	def, err := signflow.ParseTemplateDefinition([]byte(templateYAML), true)
	check(err)
	tpl, err := svc.CreateTemplate(def)
	check(err)
	m.TemplateID = tpl.ID
	app, err := svc.CreateApp(&signflow.CredentialInput{Name: "Shop", OwnerIN: ownerIN, Scopes: signflow.AppScopes, AllTemplates: true,
		WebhookURL: "http://127.0.0.1:9/app-hook"})
	check(err)
	m.AppID, m.AppSecret, m.AppWebhook = app.ID, app.Secret, app.WebhookSecret
	key, err := svc.CreateKey(&signflow.CredentialInput{Name: "ERP", OwnerIN: ownerIN, Scopes: signflow.KeyScopes, AllTemplates: true,
		WebhookURL: "http://127.0.0.1:9/key-hook"})
	check(err)
	m.KeyID, m.APIKey = key.ID, key.Secret
	var access *signflow.Access
	check(db.View(func(tx signflow.Tx) error {
		a, err := tx.App(app.ID)
		if err == nil {
			access = a.Access()
		}
		return err
	}))

	create := func(buyer string) *signflow.Contract {
		clk.now = clk.now.Add(time.Minute)
		c, err := svc.CreateContract(access, &signflow.ContractInput{TemplateID: tpl.ID, BuyerIN: buyer, Price: 150000050,
			Currency: "UZS", Values: []signflow.ValueInput{{KeyName: "deliveryAddress", Value: "Toshkent, Chilonzor 7"},
				{KeyName: "warrantyMonths", Value: "12"}}}, actor)
		check(err)
		return c
	}
	open := func(c *signflow.Contract, signer string) string {
		_, token, err := svc.OpenSession(access, c.ID, signflow.SessionRequest{SignerIN: signer, Lang: "en",
			ParentOrigin: "https://shop.example"}, actor)
		check(err)
		return token
	}
	signOTP := func(token string) {
		_, err := svc.SendCode(context.Background(), token, actor)
		check(err)
		_, err = svc.ConfirmCode(token, texts.last, actor)
		check(err)
	}

	// 1: CREATED with a session still pending; 2: ACTIVE, both parties signed;
	// 3: CANCELLED by the creator; 4: REJECTED by the customer; 5: CREATED,
	// its session expired by the sweeper.
	c1 := create(customerIN)
	c2 := create(customerIN)
	signOTP(open(c2, customerIN))
	_, err = svc.SignWithEIMZO(context.Background(), open(c2, ownerIN), "MIAGCSqGSIb3DQEHAqCAMIACAQEx", actor)
	check(err)
	c3 := create(otherIN)
	_, err = svc.Cancel(access, c3.ID, actor)
	check(err)
	c4 := create(otherIN)
	_, err = svc.RejectSession(open(c4, otherIN), actor)
	check(err)
	c5 := create(customerIN)
	t5 := open(c5, customerIN)
	clk.now = clk.now.Add(time.Hour)
	_, err = svc.ExpireSessions()
	check(err)
	t1 := open(c1, customerIN)

	// The delivery log as the pool leaves it: the first rows DELIVERED, one
	// FAILED after its four attempts, the rest PENDING.
	all, err := svc.Deliveries(signflow.DeliveryFilter{})
	check(err)
	check(db.Update(func(tx signflow.Tx) error {
		for i, d := range all {
			at := clk.now.Add(time.Duration(i) * time.Second)
			switch {
			case i < 4:
				d.Status = signflow.DeliveryDelivered
				d.Attempts = append(d.Attempts, signflow.Attempt{At: at, StatusCode: 204, DurationMs: 12})
			case i == 4:
				d.Status = signflow.DeliveryFailed
				for j := 0; j < 4; j++ {
					d.Attempts = append(d.Attempts, signflow.Attempt{At: at, StatusCode: 503, DurationMs: 8, Error: "answered 503 Service Unavailable"})
				}
			default:
				continue
			}
			if err := tx.PutDelivery(d); err != nil {
				return err
			}
		}
		return nil
	}))

	check(db.View(func(tx signflow.Tx) error {
		for _, c := range []*signflow.Contract{c1, c2, c3, c4, c5} {
			got, err := tx.Contract(c.ID)
			if err != nil {
				return err
			}
			events, err := tx.AuditEvents(c.ID)
			if err != nil {
				return err
			}
			m.Contracts = append(m.Contracts, ManifestContract{ID: got.ID, Number: got.Number, Status: got.Status,
				BuyerStatus: got.BuyerStatus, SellerStatus: got.SellerStatus, AuditEvents: len(events)})
		}
		return nil
	}))
	for token, c := range map[string]*signflow.Contract{t1: c1, t5: c5} {
		check(db.View(func(tx signflow.Tx) error {
			s, err := tx.SessionByToken(signflow.HashSecret(token))
			if err == nil {
				m.Sessions = append(m.Sessions, ManifestSession{ID: s.ID, ContractID: c.ID, Token: token, Status: s.Status})
			}
			return err
		}))
	}
	all, err = svc.Deliveries(signflow.DeliveryFilter{})
	check(err)
	for _, d := range all {
		m.Deliveries = append(m.Deliveries, ManifestDelivery{ID: d.ID, Event: d.Event, ContractID: d.ContractID, Target: d.Target,
			Status: d.Status, Attempts: len(d.Attempts)})
		if d.Status == signflow.DeliveryPending {
			m.PendingBefore++
		}
	}
	v, err := db.SchemaVersion()
	check(err)
	if v != 1 {
		check(fmt.Errorf("schema version %d: run this against the version-1 commit", v))
	}
	check(db.Close())
	out, err := json.MarshalIndent(m, "", "  ")
	check(err)
	check(os.WriteFile(filepath.Join(dir, "schema-v1.json"), append(out, '\n'), 0o644))
	fmt.Printf("wrote %s: %d contracts, %d sessions listed, %d deliveries\n", path, len(m.Contracts), len(m.Sessions), len(m.Deliveries))
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
enabledCurrencies: [UZS, USD]
productEnabled: true
paymentScheduleEnabled: true
initialPaymentEnabled: true
fields:
  - {keyName: deliveryAddress, type: STRING, name: {uz: "Manzil", ru: "Адрес", en: "Address"}}
  - {keyName: warrantyMonths, type: INTEGER, name: {uz: "Kafolat", ru: "Гарантия", en: "Warranty"}}
body:
  uz: "{{seller.name}} va {{buyer.name}}: {{deliveryAddress}}"
  ru: "{{seller.name}} и {{buyer.name}}: {{deliveryAddress}}"
  en: "{{seller.name}} and {{buyer.name}}: {{deliveryAddress}}"
`
