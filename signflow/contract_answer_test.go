package signflow_test

import (
	"strconv"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// The kept answer as the embedded interface serves it is checked by
// server/embedded/contract_answer_test.go (TestContractAnswerFollowsChanges,
// TestKeptAnswerNeedsNoTransaction) and the memos themselves by
// storage/memo_test.go and memo_fresh_test.go; here, contract_answer.go's
// rule: an answer is encoded once per change of what it shows, each
// tenant's apart, and still refused to a caller who may not read it.
func TestContractAnswerEncodedOncePerChange(t *testing.T) {
	w := fixture.NewStandard(t)
	a := w.Access(t, w.AppA)
	c, err := w.Service.CreateContract(a, &signflow.ContractInput{TemplateID: w.Template.ID, BuyerIN: fixture.CustomerIN,
		Price: 1000, Currency: "UZS"}, signflow.Actor{})
	if err != nil {
		t.Fatal(err)
	}
	encoded := 0
	encode := func(v *signflow.ContractView) []byte {
		encoded++
		return []byte(v.Status + " " + strconv.FormatInt(v.Version, 10))
	}
	answer := func(a *signflow.Access) (string, error) {
		out, err := w.Service.ContractAnswer(a, c.ID, "test", encode)
		return string(out), err
	}
	for range 3 {
		if out, err := answer(a); err != nil || out != "CREATED 1" {
			t.Fatalf("read: %q, %v", out, err)
		}
	}
	if encoded != 1 {
		t.Fatalf("three reads encoded %d times, want once", encoded)
	}
	if _, err := answer(w.Access(t, w.AppB)); signflow.ErrorCode(err) != signflow.EFORBIDDEN {
		t.Fatalf("another tenant's read of the kept answer: %v, want EFORBIDDEN", err)
	}
	if _, err := w.Service.Cancel(a, c.ID, signflow.Actor{}); err != nil {
		t.Fatal(err)
	}
	if out, err := answer(a); err != nil || out != "CANCELLED 2" || encoded != 2 {
		t.Fatalf("after a cancel: %q, %v, encoded %d times", out, err, encoded)
	}
}
