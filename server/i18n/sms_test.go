package i18n

import (
	"os"
	"strings"
	"testing"

	"contracts/internal/testtools"
	"contracts/signflow"
)

// smsDoc is the list of texts docs/sms.md gives between its markers.
func smsDoc(texts signflow.SMSTexts) string {
	var b strings.Builder
	for _, kind := range signflow.SMSKinds {
		b.WriteString("\n### " + string(kind) + "\n\nPlaceholders: " + strings.Join(signflow.SMSPlaceholders(kind), ", ") + "\n\n")
		b.WriteString("| Language | Text |\n| --- | --- |\n")
		for _, lang := range signflow.Languages {
			b.WriteString("| " + lang + " | " + texts[kind][lang] + " |\n")
		}
	}
	return b.String()
}

const smsDocBegin, smsDocEnd = "<!-- sms texts: begin (checked by TestSMSDocListsEveryText) -->\n", "<!-- sms texts: end -->"

// TestSMSDocListsEveryText: docs/sms.md lists, per language, exactly the
// texts the appliance sends, each with the placeholders its kind needs.
func TestSMSDocListsEveryText(t *testing.T) {
	texts := SMSTexts(nil)
	for _, kind := range signflow.SMSKinds {
		for _, lang := range signflow.Languages {
			if err := signflow.CheckSMSText(kind, texts[kind][lang]); err != nil {
				t.Errorf("assets/i18n/sms.json sms.%s %s: %v", kind, lang, err)
			}
		}
	}
	data, err := os.ReadFile(testtools.RepoPath(t, "docs", "sms.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	_, rest, ok1 := strings.Cut(doc, smsDocBegin)
	listed, _, ok2 := strings.Cut(rest, smsDocEnd)
	if want := smsDoc(texts); !ok1 || !ok2 || listed != want {
		t.Fatalf("docs/sms.md does not list the texts of assets/i18n/sms.json; between its markers put:\n%s", want)
	}
}

func TestSMSTextsReplaced(t *testing.T) {
	texts := SMSTexts(map[string]map[string]string{"signCode": {"ru": "Код {code}"}})
	if got := texts.Render(signflow.SMSSignCode, "ru", map[string]string{"code": "12345", "number": "A-1"}); got != "Код 12345" {
		t.Fatalf("replaced ru = %q", got)
	}
	if got := texts.Render(signflow.SMSSignCode, "en", map[string]string{"code": "12345", "number": "A-1"}); got != "Code 12345 to sign contract No. A-1. Do not share it with anyone." {
		t.Fatalf("en = %q", got)
	}
}
