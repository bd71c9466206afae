package i18n

import (
	"testing"
	"testing/fstest"
)

func TestLoadOverridesAndFormats(t *testing.T) {
	fsys := fstest.MapFS{
		"a.json": {Data: []byte(`{"hi": {"uz": "Salom {name}", "ru": "Привет {name}", "en": "Hello {name}"}, "x": {"uz": "a", "ru": "a", "en": "a"}}`)},
		"b.json": {Data: []byte(`{"x": {"uz": "b", "ru": "b", "en": "b"}}`)},
	}
	s := Load(Source{fsys, "a.json"}, Source{fsys, "b.json"})
	if got := s.For("ru").F("hi", "name", "Aziz"); got != "Привет Aziz" {
		t.Errorf("F = %q", got)
	}
	if s.For("de")["x"] != "b" || s.For("de")["hi"] != "Salom {name}" {
		t.Errorf("unknown language is not Uzbek with overrides: %v", s.For("de"))
	}
	if got := s.For("en").Or("missing", "fallback"); got != "fallback" {
		t.Errorf("Or = %q", got)
	}
	for header, want := range map[string]string{"ru-RU,ru;q=0.9,en;q=0.8": "ru", "de, EN-gb;q=0.5": "en", "fr": "", "": ""} {
		if got := FromAcceptLanguage(header); got != want {
			t.Errorf("FromAcceptLanguage(%q) = %q, want %q", header, got, want)
		}
	}
}
