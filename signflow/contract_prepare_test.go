package signflow_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"

	bolt "go.etcd.io/bbolt"
)

// On bbolt a create's record is spliced into terms encoded before its
// write (storage.PrepareContract): what it stores is json.Marshal of the
// contract read back, for creates of every part the write fills in
// (witnesses' names, parties' details, deadline) and of terms with values,
// products and payments.
func TestCreatedRecordIsThePlainEncoding(t *testing.T) {
	w := newWitnessed(t, nil)
	day := time.Now().UTC().AddDate(0, 1, 0).Truncate(24 * time.Hour)
	signBy := time.Now().UTC().Add(48 * time.Hour)
	a := w.Access(t, w.AppA)
	ids := []string{}
	full, err := w.Service.CreateContract(a, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 150000, Currency: "UZS", SignBy: &signBy, DeliveryAt: &day,
		Payments: []signflow.Payment{{Amount: 5, PaymentDate: day}},
		Products: []signflow.Product{{Name: "TV \"55\" <b>", Quantity: 2, Price: 500, Values: map[string]any{"color": "red"}}},
		Values:   []signflow.ValueInput{{KeyName: "warrantyMonths", Value: "12"}}}, signflow.Actor{IP: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	ids = append(ids, full.ID, w.Contract(t).ID)
	witnessed, err := w.create(w.ids...)
	if err != nil {
		t.Fatal(err)
	}
	ids = append(ids, witnessed.ID)
	err = w.DB.Bolt().View(func(btx *bolt.Tx) error {
		for _, id := range ids {
			stored := btx.Bucket([]byte("contracts")).Get([]byte(id))
			var c signflow.Contract
			if err := json.Unmarshal(stored, &c); err != nil {
				return err
			}
			if want, _ := json.Marshal(&c); !bytes.Equal(stored, want) {
				t.Errorf("contract %s stored\n%s\nnot json.Marshal's\n%s", id, stored, want)
			}
			if c.Number == "" || c.Hash == "" || c.Parties == nil || (id == witnessed.ID && c.Witnesses[0].LastName != "Saidova") {
				t.Errorf("contract %s stored without what its write sets: %s", id, stored)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
