package storagetest

import (
	"slices"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

const witnessTemplateYAML = `name: {uz: "Guvohli", ru: "Со свидетелями", en: "Witnessed"}
sellerName: {uz: "Sotuvchi", ru: "Продавец", en: "Seller"}
buyerName: {uz: "Xaridor", ru: "Покупатель", en: "Buyer"}
witnessEnabled: true
witnessCount: 1
`

// testWitnessLookups checks the two reads witnesses add: a record is found
// by its id only among those the tenant holds (owners' records, its own
// claims; never another tenant's claim), and the contracts that name a
// number as a witness are listed newest first, up to the limit.
func testWitnessLookups(t *testing.T, e Engine) {
	w := fixture.NewStandardOn(t, e.Open(t))
	tpl := fixture.MustTemplate(t, w.Service, witnessTemplateYAML)
	mine := fixture.MustClaim(t, w.Service, fixture.OwnerIN, &signflow.Client{IN: "41111111111111", FirstName: "Guli", LastName: "Saidova", Phone: "998907000001"})
	theirs := fixture.MustClaim(t, w.Service, fixture.OtherIN, &signflow.Client{IN: "41111111111112", FirstName: "Bobur", LastName: "Aliyev", Phone: "998907000002"})
	owner, err := w.Service.Owner(fixture.OtherIN)
	must(t, err)
	var ids []string
	for range 3 {
		c, err := w.Service.CreateContract(w.Access(t, w.AppA), &signflow.ContractInput{TemplateID: tpl.ID, BuyerIN: fixture.CustomerIN,
			Price: 100, WitnessIDs: []string{mine.ID}}, signflow.Actor{})
		must(t, err)
		ids = append(ids, c.ID)
	}
	for _, store := range []signflow.Store{w.Store, e.peer(t, w.Store)} {
		must(t, store.View(func(tx signflow.Tx) error {
			for _, tc := range []struct{ tenant, id, want string }{
				{fixture.OwnerIN, mine.ID, mine.IN},
				{fixture.OwnerIN, owner.ID, fixture.OtherIN},
				{fixture.OtherIN, theirs.ID, theirs.IN},
				{fixture.OwnerIN, theirs.ID, ""},
				{fixture.OwnerIN, signflow.NewID(), ""},
			} {
				in, err := tx.ClientIN(tc.tenant, tc.id)
				if tc.want == "" && signflow.ErrorCode(err) != signflow.ENOTFOUND || tc.want != "" && (err != nil || in != tc.want) {
					t.Errorf("ClientIN(%s, %s) = %q, %v; want %q", tc.tenant, tc.id, in, err, tc.want)
				}
			}
			for _, tc := range []struct {
				in    string
				limit int
				want  []string
			}{
				{mine.IN, 2, []string{ids[2], ids[1]}},
				{mine.IN, 10, []string{ids[2], ids[1], ids[0]}},
				{theirs.IN, 10, nil},
				{fixture.CustomerIN, 10, nil}, // a party, not a witness
			} {
				got, err := tx.WitnessContracts(tc.in, tc.limit)
				must(t, err)
				if !slices.Equal(got, tc.want) {
					t.Errorf("WitnessContracts(%s, %d) = %v, want %v", tc.in, tc.limit, got, tc.want)
				}
			}
			return nil
		}))
	}
}
