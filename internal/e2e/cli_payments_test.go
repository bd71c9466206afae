package e2e

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOwnerPaymentsCommand: "contracts admin owner payments" sets an
// owner's Payme and Click accounts through the admin API, prints them
// without a secret, keeps the provider not given, and names the flag a
// refusal is about; Payme's calls are then checked with the key given.
func TestOwnerPaymentsCommand(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	in := startInstance(t, dir, data)
	admin := []string{"admin", "--url", in.admin, "--data-dir", data}
	mustRun(t, dir, append(admin, "owner", "create", "--in", "305555555", "--type", "COMPANY", "--legal-name", "Epsilon LLC")...)

	out := mustRun(t, dir, append(admin, "owner", "payments", "--in", "305555555", "--payme-merchant-id", "m-cli", "--payme-key", "payme-cli-key")...)
	if field(t, out, "ownerIn") != "305555555" || field(t, out, "payme") != `{"merchantId":"m-cli"}` || field(t, out, "click") != "null" {
		t.Fatalf("payme set printed:\n%s", out)
	}
	out = mustRun(t, dir, append(admin, "owner", "payments", "--in", "305555555", "--click-service-id", "4321", "--click-merchant-id", "8765",
		"--click-secret-key", "click-cli-secret")...)
	if field(t, out, "payme") != `{"merchantId":"m-cli"}` || field(t, out, "click") != `{"merchantId":"8765","serviceId":"4321"}` {
		t.Fatalf("click set printed:\n%s", out)
	}
	for _, secret := range []string{"payme-cli-key", "click-cli-secret"} {
		if strings.Contains(out+in.stderr.String(), secret) {
			t.Fatalf("%s shown in the answer or the log", secret)
		}
	}
	// Payme names the merchant by the key given: it is past the key check
	// (the contract is unknown), and a wrong key is not.
	payme := &paymeSim{t: t, url: in.embedded + "/payments/payme", key: "payme-cli-key"}
	check := map[string]any{"amount": 100000, "account": map[string]string{"contract": "C-404"}}
	_, rpcErr := payme.call("CheckPerformTransaction", check)
	payme.wantErr("the key given", rpcErr, -31050)
	payme.key = "another-key"
	_, rpcErr = payme.call("CheckPerformTransaction", check)
	payme.wantErr("a wrong key", rpcErr, -32504)

	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"no provider", []string{"owner", "payments", "--in", "305555555"}, "give the --payme-... flags, the --click-... flags, or both"},
		{"no owner", []string{"owner", "payments", "--payme-merchant-id", "m"}, "admin owner payments: --in is required"},
		{"bad service id names the flag", []string{"owner", "payments", "--in", "305555555", "--click-service-id", "abc",
			"--click-merchant-id", "8765", "--click-secret-key", "s"}, "400 Bad Request: --click-service-id: must be a number"},
		{"key left out", []string{"owner", "payments", "--in", "305555555", "--payme-merchant-id", "m2"},
			"--payme-merchant-id, --payme-key go together"},
		{"empty key names the flag", []string{"owner", "payments", "--in", "305555555", "--payme-merchant-id", "m2", "--payme-key", ""},
			"400 Bad Request: --payme-key: must be 1 to 200 bytes"},
		{"unknown owner", []string{"owner", "payments", "--in", "306666666", "--payme-merchant-id", "m3", "--payme-key", "k3"}, "404"},
	} {
		_, errOut, code := runCommand(t, dir, nil, append(admin, c.args...)...)
		if code == 0 || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, want %q in\n%s", c.name, code, c.want, errOut)
		}
	}
	out = mustRun(t, dir, append(admin, "owner", "payments", "--in", "305555555", "--payme-merchant-id", "m-cli", "--payme-key", "payme-cli-key")...)
	if field(t, out, "click") != `{"merchantId":"8765","serviceId":"4321"}` {
		t.Fatalf("a refused change changed the accounts:\n%s", out)
	}
}
