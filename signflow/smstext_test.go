package signflow

import "testing"

func TestSMSTextsRender(t *testing.T) {
	texts := DefaultSMSTexts()
	for _, kind := range SMSKinds {
		for _, lang := range []string{"uz", "ru", "en"} {
			if texts[kind][lang] == "" {
				t.Errorf("%s has no %s text", kind, lang)
			}
		}
	}
	got := texts.Render(SMSSignCode, "en", map[string]string{"code": "01234", "number": "A-7"})
	if want := "Code 01234 to sign contract No. A-7. Do not share it with anyone."; got != want {
		t.Errorf("en sign code = %q, want %q", got, want)
	}
	if got, want := texts.Render(SMSCabinetCode, "fr", map[string]string{"code": "5"}), "Kabinetga kirish kodi: 5. Uni hech kimga bermang."; got != want {
		t.Errorf("unknown language = %q, want the uz text %q", got, want)
	}
}
