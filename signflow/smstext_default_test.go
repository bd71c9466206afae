package signflow_test

import (
	"testing"

	"contracts/signflow"
)

// The texts the appliance sends are assets/i18n/sms.json's, checked by
// server/i18n/sms_test.go; the defaults of smstext_default.go, which tests
// and tools get, are valid texts of every kind in every language.
func TestDefaultSMSTextsAreValid(t *testing.T) {
	texts := signflow.DefaultSMSTexts()
	for _, kind := range signflow.SMSKinds {
		for _, lang := range signflow.Languages {
			if err := signflow.CheckSMSText(kind, texts[kind][lang]); err != nil {
				t.Errorf("%s %s: %q: %v", kind, lang, texts[kind][lang], err)
			}
		}
	}
}
