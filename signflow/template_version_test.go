package signflow_test

import (
	"testing"

	"contracts/signflow"
)

// Template versions through the admin API and the key interface (a
// contract keeps the version it was made from) are checked by
// server/keyapi/versions_test.go (TestRequiredFieldsAndVersions) and
// storage/storagetest (TemplateVersions, both engines); here,
// template_version.go's rule that a contract stored before versions were
// kept was made from version 1.
func TestContractFromVersion(t *testing.T) {
	for stored, want := range map[int]int{0: 1, 1: 1, 2: 2, 7: 7} {
		if got := (&signflow.Contract{TemplateVersion: stored}).FromVersion(); got != want {
			t.Errorf("templateVersion %d: from version %d, want %d", stored, got, want)
		}
	}
}
