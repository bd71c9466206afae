package i18n

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"slices"
	"testing"
	"testing/fstest"
)

func TestLoadJoinsAndFormats(t *testing.T) {
	fsys := fstest.MapFS{
		"a.json": {Data: []byte(`{"hi": {"uz": "Salom {name}", "ru": "Привет {name}", "en": "Hello {name}"}}`)},
		"b.json": {Data: []byte(`{"x": {"uz": "b", "ru": "b", "en": "b"}}`)},
	}
	s := Load(Source{fsys, "a.json"}, Source{fsys, "b.json"})
	if got := s.For("ru").F("hi", "name", "Aziz"); got != "Привет Aziz" {
		t.Errorf("F = %q", got)
	}
	if s.For("de")["x"] != "b" || s.For("de")["hi"] != "Salom {name}" || s.Has("de") || !s.Has("en") {
		t.Errorf("unknown language is not Uzbek: %v", s.For("de"))
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

func TestPick(t *testing.T) {
	for _, c := range []struct{ asked, remembered, accept, want string }{
		{"en", "ru", "ru", "en"},
		{"de", "ru", "en", "ru"},
		{"", "xx", "en-GB,ru;q=0.5", "en"},
		{"", "", "fr", "uz"},
	} {
		if got := Pick(c.asked, c.remembered, c.accept); got != c.want {
			t.Errorf("Pick(%q, %q, %q) = %q, want %q", c.asked, c.remembered, c.accept, got, c.want)
		}
	}
}

// A word has one home: a key in two files does not load.
func TestLoadRefusesAKeyInTwoFiles(t *testing.T) {
	fsys := fstest.MapFS{
		"a.json": {Data: []byte(`{"x": {"uz": "a", "ru": "a", "en": "a"}}`)},
		"b.json": {Data: []byte(`{"x": {"uz": "b", "ru": "b", "en": "b"}}`)},
	}
	defer func() {
		if recover() == nil {
			t.Fatal("a key in two files loaded")
		}
	}()
	Load(Source{fsys, "a.json"}, Source{fsys, "b.json"})
}

var placeholderRE = regexp.MustCompile(`\{\w+\}`)

// Every file of the appliance says every key in the three languages, with
// the same placeholders in each, and no key twice across them.
func TestFilesComplete(t *testing.T) {
	seen := map[string]string{}
	for _, f := range Files {
		data, err := fs.ReadFile(f.FS, f.Path)
		if err != nil {
			t.Fatal(err)
		}
		var byKey map[string]map[string]string
		if err := json.Unmarshal(data, &byKey); err != nil {
			t.Fatalf("%s: %v", f.Path, err)
		}
		for key, texts := range byKey {
			if other, ok := seen[key]; ok {
				t.Errorf("%s: key %s is in %s too", f.Path, key, other)
			}
			seen[key] = f.Path
			want := placeholderRE.FindAllString(texts["en"], -1)
			slices.Sort(want)
			for _, lang := range []string{"uz", "ru", "en"} {
				if texts[lang] == "" {
					t.Errorf("%s: %s has no %s text", f.Path, key, lang)
				}
				got := placeholderRE.FindAllString(texts[lang], -1)
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%s: %s in %s has placeholders %v, in en %v", f.Path, key, lang, got, want)
				}
			}
		}
	}
	for _, s := range []Set{Document, Sign, Cabinet, Verify} {
		if len(s["uz"]) == 0 || len(s["uz"]) != len(s["ru"]) || len(s["ru"]) != len(s["en"]) {
			t.Errorf("a set's languages differ in size: %d %d %d", len(s["uz"]), len(s["ru"]), len(s["en"]))
		}
	}
}
