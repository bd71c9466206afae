package signflow_test

import (
	"encoding/json"
	"testing"
	"time"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Each rule of contract creation, checked against a real store: the code
// and, for a refusal, that nothing was written.
func TestCreateContractRules(t *testing.T) {
	w := fixture.NewStandard(t)
	appA := w.Access(t, w.AppA)
	tpl := w.Template
	field := tpl.FieldByKey("deliveryAddress")
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	base := func() *signflow.ContractInput {
		return &signflow.ContractInput{TemplateID: tpl.ID, BuyerIN: fixture.CustomerIN, Price: 100000, Currency: "UZS"}
	}
	cases := []struct {
		name string
		edit func(*signflow.ContractInput)
		code string
	}{
		{"valid, seller empty means owner", func(in *signflow.ContractInput) {}, ""},
		{"missing templateId", func(in *signflow.ContractInput) { in.TemplateID = "" }, signflow.EINVALID},
		{"unknown template", func(in *signflow.ContractInput) { in.TemplateID = "00000000-0000-4000-8000-000000000000" }, signflow.EINVALID},
		{"draft template", func(in *signflow.ContractInput) { in.TemplateID = w.Draft.ID }, signflow.EINVALID},
		{"both parties empty", func(in *signflow.ContractInput) { in.BuyerIN = "" }, signflow.EINVALID},
		{"same party twice", func(in *signflow.ContractInput) { in.BuyerIN, in.SellerIN = fixture.OwnerIN, fixture.OwnerIN }, signflow.EINVALID},
		{"no owner party", func(in *signflow.ContractInput) { in.SellerIN = fixture.OtherIN }, signflow.EFORBIDDEN},
		{"bad number", func(in *signflow.ContractInput) { in.BuyerIN = "123" }, signflow.EINVALID},
		{"currency not enabled", func(in *signflow.ContractInput) { in.Currency = "RUB" }, signflow.EINVALID},
		{"unknown currency", func(in *signflow.ContractInput) { in.Currency = "EUR" }, signflow.EINVALID},
		{"initial payment above price", func(in *signflow.ContractInput) { in.InitialPayment = 200000 }, signflow.EINVALID},
		{"payment without date", func(in *signflow.ContractInput) { in.Payments = []signflow.Payment{{Amount: 5}} }, signflow.EINVALID},
		{"payments", func(in *signflow.ContractInput) { in.Payments = []signflow.Payment{{Amount: 5, PaymentDate: day}} }, ""},
		{"product", func(in *signflow.ContractInput) {
			in.Products = []signflow.Product{{Name: "TV", Quantity: 2, Price: 500, Values: map[string]any{"color": "red"}}}
		}, ""},
		{"product amount mismatch", func(in *signflow.ContractInput) {
			in.Products = []signflow.Product{{Name: "TV", Quantity: 2, Price: 500, Amount: 900}}
		}, signflow.EINVALID},
		{"product value not a product field", func(in *signflow.ContractInput) {
			in.Products = []signflow.Product{{Name: "TV", Quantity: 1, Price: 1, Values: map[string]any{"deliveryAddress": "x"}}}
		}, signflow.EINVALID},
		{"product unit", func(in *signflow.ContractInput) {
			in.Products = []signflow.Product{{Name: "TV", Quantity: 1, Unit: "BOX"}}
		}, signflow.EINVALID},
		{"value by id", func(in *signflow.ContractInput) {
			in.Values = []signflow.ValueInput{{TemplateFieldID: field.ID, Value: "Tashkent"}}
		}, ""},
		{"value id and key disagree", func(in *signflow.ContractInput) {
			in.Values = []signflow.ValueInput{{TemplateFieldID: field.ID, KeyName: "warrantyMonths", Value: "1"}}
		}, signflow.EINVALID},
		{"value of wrong type", func(in *signflow.ContractInput) {
			in.Values = []signflow.ValueInput{{KeyName: "warrantyMonths", Value: "twelve"}}
		}, signflow.EINVALID},
		{"value of unknown field", func(in *signflow.ContractInput) { in.Values = []signflow.ValueInput{{KeyName: "nope", Value: "1"}} }, signflow.EINVALID},
		{"witnesses on a template without them", func(in *signflow.ContractInput) {
			in.WitnessIDs = []string{"00000000-0000-4000-8000-000000000001"}
		}, signflow.EINVALID},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in := base()
			tc.edit(in)
			before := len(listAll(t, w, appA))
			c, err := w.Service.CreateContract(appA, in, signflow.Actor{})
			if got := signflow.ErrorCode(err); got != tc.code {
				t.Fatalf("code %q (%v), want %q", got, err, tc.code)
			}
			after := len(listAll(t, w, appA))
			if tc.code != "" {
				if after != before {
					t.Fatalf("a refused create wrote a contract")
				}
				return
			}
			if after != before+1 || c.Status != signflow.StatusCreated || c.SellerIN != fixture.OwnerIN || c.CreatorIN != fixture.OwnerIN ||
				c.Version != 1 || c.Hash != signflow.DocumentHash(c) || len(c.Hash) != 64 {
				t.Fatalf("stored contract: %+v", c)
			}
		})
	}
}

func listAll(t *testing.T, w *fixture.Standard, a *signflow.Access) []*signflow.ContractView {
	t.Helper()
	list, _, err := w.Service.ListContracts(a, signflow.ContractQuery{Size: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// The number is <year>-<6-digit sequence>, unique and increasing; the
// CONTRACT_CREATED audit event carries the document hash.
func TestContractNumberAndCreatedEvent(t *testing.T) {
	w := fixture.NewStandard(t)
	a, b := w.Contract(t), w.Contract(t)
	if a.Number != "2026-000001" || b.Number != "2026-000002" {
		t.Fatalf("numbers %s, %s", a.Number, b.Number)
	}
	events, err := w.Service.AuditTrail(a.ID)
	if err != nil || len(events) != 1 || events[0].Type != signflow.EventCreated || events[0].Hash != a.Hash || events[0].ActorIN != fixture.OwnerIN {
		t.Fatalf("audit %+v %v", events, err)
	}
}

func TestMoneyParsing(t *testing.T) {
	for in, want := range map[string]int64{"1500": 150000, "1500.5": 150050, "1500.25": 150025, "0": 0} {
		if got, err := signflow.MinorFromMajor(json.Number(in), "price"); err != nil || got != want {
			t.Errorf("MinorFromMajor(%s) = %d, %v", in, got, err)
		}
	}
	for _, bad := range []string{"1500.255", "-1", "1e30", "1e3", "0.001"} {
		if _, err := signflow.MinorFromMajor(json.Number(bad), "price"); signflow.ErrorCode(err) != signflow.EINVALID {
			t.Errorf("MinorFromMajor(%s) accepted", bad)
		}
	}
	if _, err := signflow.MinorFromInteger(json.Number("150000.5"), "price"); err == nil {
		t.Error("fractional minor units accepted")
	}
	if got := signflow.MajorNumber(150025); got != "1500.25" {
		t.Errorf("MajorNumber = %s", got)
	}
}
