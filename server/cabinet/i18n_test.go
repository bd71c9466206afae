package cabinet

import (
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	"contracts/assets"
	"contracts/signflow"
)

// Every string the page, its script and its Go code ask for exists in
// uz, ru and en, whether it is the cabinet's own or the signing page's.
func TestEveryStringInEveryLanguage(t *testing.T) {
	keys := map[string]bool{}
	find := func(src string, res ...*regexp.Regexp) {
		for _, re := range res {
			for _, m := range re.FindAllStringSubmatch(src, -1) {
				if !strings.HasSuffix(m[1], ".") { // a prefix: its family is listed below
					keys[m[1]] = true
				}
			}
		}
	}
	read := func(fsys fs.FS, name string) string {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	find(read(assets.Cabinet, "cabinet/page.html")+read(assets.Sign, "sign/steps.html"), regexp.MustCompile(`\.T\.([A-Za-z0-9]+)`))
	find(string(assets.CommonJS), regexp.MustCompile(`fmt\('([A-Za-z0-9.]+)'`), regexp.MustCompile(`'(err\.[A-Za-z]+)'`))
	find(read(assets.Cabinet, "cabinet/cabinet.js"), regexp.MustCompile(`fmt\('([A-Za-z0-9.]+)'`), regexp.MustCompile(`'(err\.[A-Za-z]+)'`),
		regexp.MustCompile(`\bT\.([A-Za-z0-9]+)`))
	for _, name := range []string{"view.go", "pages.go"} {
		find(read(os.DirFS("."), name), regexp.MustCompile(`\bt\["([^"]+)"\]`), regexp.MustCompile(`\.T\["([^"]+)"\]`),
			regexp.MustCompile(`\bt\.(?:F|Or)\("([^"]+)"`))
	}
	// Keys built at run time.
	for _, family := range []struct {
		prefix string
		values []string
	}{
		{prefix: "status.", values: []string{"CREATED", "ACTIVE", "COMPLETED", "REJECTED", "CANCELLED"}},
		{prefix: "party.", values: []string{"PENDING", "ACCEPTED", "REJECTED", "CANCELLED"}},
		{prefix: "method.", values: []string{"OTP_SMS", "MY_ID", "ABLE_ID", "E_IMZO"}},
		{prefix: "unit.", values: signflow.Units},
		{prefix: "pdf.", values: signflow.Languages},
		{values: []string{"signedTitle", "signedText", "rejectedTitle", "rejectedText", "cancelledTitle", "cancelledText"}},
	} {
		for _, v := range family.values {
			keys[family.prefix+v] = true
		}
	}
	if len(keys) < 80 {
		t.Fatalf("found only %d keys: the patterns have gone stale", len(keys))
	}
	for _, lang := range signflow.Languages {
		for key := range keys {
			if tr(lang)[key] == "" {
				t.Errorf("%s: no string %q", lang, key)
			}
		}
	}
}
