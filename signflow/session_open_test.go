package signflow

import (
	"strings"
	"testing"
)

// Who may open a session for whom, and its method, are checked through the
// interfaces by server/embedded/sessions_test.go, server/embedded's
// TestParentOriginParsed and server/tenancy_test.go; here, the request
// rules of session_open.go on their own.
func TestSessionRequestValidate(t *testing.T) {
	r := SessionRequest{SignerIN: "31234567890123", ParentOrigin: "https://Shop.Example/", RedirectURL: "https://shop.example/done"}
	if err := r.validate(); err != nil || r.Lang != "uz" || r.ParentOrigin != "https://shop.example" {
		t.Fatalf("a plain request: %v, %+v", err, r)
	}
	for _, tc := range []struct {
		r    SessionRequest
		want string
	}{
		{SessionRequest{}, "signerIn: required"},
		{SessionRequest{SignerIN: "31234567890123", Notify: "EMAIL"}, "notify: must be SMS"},
		{SessionRequest{SignerIN: "31234567890123", Lang: "fr"}, "lang: must be uz, ru or en"},
		{SessionRequest{SignerIN: "31234567890123", ParentOrigin: "http://shop.example"}, "parentOrigin: must be an origin"},
		{SessionRequest{SignerIN: "31234567890123", RedirectURL: "/done"}, "redirectUrl: must be an absolute http or https URL"},
		{SessionRequest{SignerIN: "31234567890123", RedirectURL: "javascript:alert(1)"}, "redirectUrl"},
	} {
		if err := tc.r.validate(); ErrorCode(err) != EINVALID || !strings.HasPrefix(ErrorMessage(err), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.r, err, tc.want)
		}
	}
}
