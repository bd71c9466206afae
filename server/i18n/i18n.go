// Package i18n holds the strings of the service's web pages in uz, ru and
// en, loaded from JSON files of the form {"key": {"uz": …, "ru": …, "en": …}}.
package i18n

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"

	"contracts/signflow"
)

// Dict is every string of a page in one language.
type Dict map[string]string

// Set holds a Dict per language.
type Set map[string]Dict

// Source is one strings file.
type Source struct {
	FS   fs.FS
	Path string
}

// Load reads the sources in order, later ones overriding earlier keys. The
// files are embedded in the binary, so a bad one is a build defect: it panics.
func Load(sources ...Source) Set {
	out := Set{}
	for _, lang := range signflow.Languages {
		out[lang] = Dict{}
	}
	for _, src := range sources {
		data, err := fs.ReadFile(src.FS, src.Path)
		if err != nil {
			panic(err)
		}
		var byKey map[string]map[string]string
		if err := json.Unmarshal(data, &byKey); err != nil {
			panic(fmt.Sprintf("assets/%s: %v", src.Path, err))
		}
		for key, texts := range byKey {
			for _, lang := range signflow.Languages {
				out[lang][key] = texts[lang]
			}
		}
	}
	return out
}

// For returns the strings of lang, Uzbek for an unknown language.
func (s Set) For(lang string) Dict {
	if d, ok := s[lang]; ok {
		return d
	}
	return s["uz"]
}

// F returns the string of key with each {name} replaced: F(key, name, value, ...).
func (d Dict) F(key string, pairs ...string) string {
	s := d[key]
	for i := 0; i+1 < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, "{"+pairs[i]+"}", pairs[i+1])
	}
	return s
}

// Or returns the string of key, or fallback when there is none.
func (d Dict) Or(key, fallback string) string {
	if s := d[key]; s != "" {
		return s
	}
	return fallback
}

// FromAcceptLanguage returns the first of the service's languages an
// Accept-Language header names, or "" when it names none.
func FromAcceptLanguage(header string) string {
	for _, part := range strings.Split(header, ",") {
		tag := strings.ToLower(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]))
		l := strings.SplitN(tag, "-", 2)[0]
		for _, known := range signflow.Languages {
			if l == known {
				return l
			}
		}
	}
	return ""
}
