package signflow

import "testing"

func TestSMSTextsRender(t *testing.T) {
	texts := SMSTexts{SMSSignCode: {"uz": "{number} kodi: {code}", "en": "Code {code} for No. {number}"}}
	if got, want := texts.Render(SMSSignCode, "en", map[string]string{"code": "01234", "number": "A-7"}), "Code 01234 for No. A-7"; got != want {
		t.Errorf("en sign code = %q, want %q", got, want)
	}
	if got, want := texts.Render(SMSSignCode, "fr", map[string]string{"code": "5", "number": "B"}), "B kodi: 5"; got != want {
		t.Errorf("unknown language = %q, want the uz text %q", got, want)
	}
	defaults := DefaultSMSTexts()
	for _, kind := range SMSKinds {
		for _, lang := range Languages {
			if err := CheckSMSText(kind, defaults[kind][lang]); err != nil {
				t.Errorf("default %s %s: %v", kind, lang, err)
			}
		}
	}
}

func TestCheckSMSText(t *testing.T) {
	for _, c := range []struct {
		kind SMSKind
		text string
		ok   bool
	}{
		{SMSSignCode, "Kod {code}, shartnoma {number}", true},
		{SMSSignCode, "Shartnoma {number}", false},
		{SMSSignCode, "Kod {code} {url}", false},
		{SMSPaymentReminder, "{amount} {date}: {url}", true},
		{SMSPaymentReminder, "{amount} {date}", false},
		{SMSCabinetInvite, "{owner}: {url}", true},
		{SMSCabinetInvite, "{owner}: {urll}", false},
		{"nosuch", "{code}", false},
	} {
		if err := CheckSMSText(c.kind, c.text); (err == nil) != c.ok {
			t.Errorf("%s %q: %v, want ok=%v", c.kind, c.text, err, c.ok)
		}
	}
}
