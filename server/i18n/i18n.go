// Package i18n holds every string people read, in uz, ru and en, loaded
// from the JSON files under assets/i18n/, each of the form
// {"key": {"uz": …, "ru": …, "en": …}}. document.json holds the words of
// the contract as a person reads it (labels, statuses, methods, units,
// audit events); each page adds its own file. A key lives in one file
// only, so that a word has one home.
package i18n

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"contracts/assets"
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

// The strings files of the appliance.
var (
	documentFile = Source{assets.I18n, "i18n/document.json"}
	signFile     = Source{assets.I18n, "i18n/sign.json"}
	cabinetFile  = Source{assets.I18n, "i18n/cabinet.json"}
	verifyFile   = Source{assets.I18n, "i18n/verify.json"}
	consoleFile  = Source{assets.I18n, "i18n/console.json"}
	demoFile     = Source{assets.I18n, "i18n/demo.json"}
)

// The strings of each surface: the document's words, and those of the
// page around it. The cabinet shares the signing page's words for the
// signing steps the two have in common.
var (
	Document = Load(documentFile)
	Sign     = Load(documentFile, signFile)
	Cabinet  = Load(documentFile, signFile, cabinetFile)
	Verify   = Load(documentFile, verifyFile)
	Console  = Load(documentFile, consoleFile)
	Demo     = Load(demoFile)
)

// Files lists every strings file, for tests that check them all.
var Files = []Source{documentFile, signFile, cabinetFile, verifyFile, consoleFile, demoFile, smsFile, paymentsFile}

// Load reads the sources into one set. A key in two sources is a defect,
// as is a bad file: the files are embedded in the binary, so it panics.
func Load(sources ...Source) Set {
	out := Set{}
	for _, lang := range signflow.Languages {
		out[lang] = Dict{}
	}
	from := map[string]string{}
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
			if first, ok := from[key]; ok {
				panic(fmt.Sprintf("assets/%s: key %q is already in %s", src.Path, key, first))
			}
			from[key] = src.Path
			for _, lang := range signflow.Languages {
				out[lang][key] = texts[lang]
			}
		}
	}
	return out
}

// Has reports whether lang is one of the set's languages.
func (s Set) Has(lang string) bool { return s[lang] != nil }

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

// Pick is a page's language: the one asked for (?lang=), else the one the
// visitor chose before (a cookie), else the first Accept-Language names,
// else Uzbek.
func Pick(asked, remembered, acceptLanguage string) string {
	for _, l := range []string{asked, remembered} {
		if slices.Contains(signflow.Languages, l) {
			return l
		}
	}
	if l := FromAcceptLanguage(acceptLanguage); l != "" {
		return l
	}
	return "uz"
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
