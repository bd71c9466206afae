package loadgen

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"contracts/assets"
	"contracts/internal/config"
	"contracts/server/wire"
	"contracts/signflow"
	"contracts/signflow/secretbox"
	"contracts/storage"
)

// Filled is what Fill provisioned and wrote.
type Filled struct {
	AppID, AppSecret string // an app of the owner, every app scope
	Key              string // a key of the owner, every key scope
	TemplateID       string
	Contracts        int           // contracts written
	Took             time.Duration // to write them
}

// Fill writes n typical contracts (ContractBody) of one owner into the
// bbolt file at path (created if missing), which no appliance may have
// open: first the owner's record, the demo template, an app and a key of
// the owner and the customer's claim (new ones on each call), then the
// contracts through the service's own create from workers concurrent
// writers, which bbolt batches into large transactions. Every loop is
// bounded by n. Progress goes to progress every tenth of n. The webhook
// secrets of the app and key are encrypted under masterKey: the appliance's
// (data/master.key), or a throwaway one when it is empty. When ctx ends
// the workers stop after their current create.
func Fill(ctx context.Context, path, masterKey string, n, workers int, progress io.Writer) (*Filled, error) {
	if masterKey == "" {
		masterKey = signflow.RandomToken(32)
	}
	box, err := secretbox.New([]byte(masterKey))
	if err != nil {
		return nil, err
	}
	def := config.Default() // what the served appliance runs with
	db, err := storage.Open(path, storage.Options{BatchDelay: def.Data.BatchDelay})
	if err != nil {
		return nil, err
	}
	defer db.Close()
	svc := signflow.NewService(db, signflow.Options{Secret: []byte("fill: no token is issued by this service"), Box: box,
		SessionTTL: def.Signing.SessionTTL, OTPTTL: def.Signing.OTPTTL})
	out, access, in, err := provisionFill(svc)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	var next, done atomic.Int64
	var firstErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := next.Add(1); i <= int64(n) && ctx.Err() == nil; i = next.Add(1) {
				c := *in
				if _, err := svc.CreateContract(access, &c, signflow.Actor{IP: "127.0.0.1"}); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					next.Store(int64(n)) // the others stop too
					return
				}
				if d := done.Add(1); n >= 10 && d%int64(n/10) == 0 {
					fmt.Fprintf(progress, "fill: %d of %d contracts, %s\n", d, n, time.Since(start).Round(time.Millisecond))
				}
			}
		}()
	}
	wg.Wait()
	out.Contracts, out.Took = int(done.Load()), time.Since(start)
	if firstErr == nil && ctx.Err() != nil {
		firstErr = fmt.Errorf("stopped after %d contracts: %w", out.Contracts, ctx.Err())
	}
	return out, firstErr
}

// provisionFill makes the owner, template, app, key and customer of Fill,
// and returns the access and the input of the contracts to write.
func provisionFill(svc *signflow.Service) (*Filled, *signflow.Access, *signflow.ContractInput, error) {
	if _, err := svc.CreateOwner(&signflow.Client{IN: ownerIN, Type: signflow.ClientCompany, LegalName: "Alpha Savdo MChJ", Phone: "+998712000000"}); err != nil {
		return nil, nil, nil, err
	}
	def, err := signflow.ParseTemplateDefinition(assets.DemoTemplate, true)
	if err != nil {
		return nil, nil, nil, err
	}
	tpl, err := svc.CreateTemplate(def)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := svc.PublishTemplate(tpl.ID); err != nil {
		return nil, nil, nil, err
	}
	app, err := svc.CreateApp(&signflow.CredentialInput{Name: "Fill", OwnerIN: ownerIN, Scopes: signflow.AppScopes, AllTemplates: true})
	if err != nil {
		return nil, nil, nil, err
	}
	key, err := svc.CreateKey(&signflow.CredentialInput{Name: "Fill", OwnerIN: ownerIN, Scopes: signflow.KeyScopes, AllTemplates: true})
	if err != nil {
		return nil, nil, nil, err
	}
	access := &signflow.Access{Interface: signflow.Embedded, OwnerIN: ownerIN, Scopes: signflow.AppScopes, AllTemplates: true, AppID: app.ID}
	if _, err := svc.RegisterClient(access, &signflow.Client{IN: customerIN, FirstName: "Aziz", LastName: "Karimov", Phone: "+998901234567"}); err != nil {
		return nil, nil, nil, err
	}
	var req wire.ContractRequest
	if err := json.Unmarshal(ContractBody(tpl.ID), &req); err != nil {
		return nil, nil, nil, err
	}
	in, err := req.Input(wire.Major)
	if err != nil {
		return nil, nil, nil, err
	}
	return &Filled{AppID: app.ID, AppSecret: app.Secret, Key: key.Secret, TemplateID: tpl.ID}, access, in, nil
}
