package cabinet

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"slices"
	"strings"

	"contracts/assets"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// dict is every string of the page in one language.
type dict map[string]string

// dicts holds the strings per language: the signing page's (what the two
// pages share: statuses, the signing steps, the contract's sections), with
// the cabinet's own over them.
var dicts = loadDicts()

func loadDicts() map[string]dict {
	out := map[string]dict{}
	for _, lang := range signflow.Languages {
		out[lang] = dict{}
	}
	for _, src := range []struct {
		fsys fs.FS
		path string
	}{{assets.Sign, "sign/i18n.json"}, {assets.Cabinet, "cabinet/i18n.json"}} {
		data, err := fs.ReadFile(src.fsys, src.path)
		if err != nil {
			panic(err)
		}
		var byKey map[string]map[string]string
		if err := json.Unmarshal(data, &byKey); err != nil {
			panic(fmt.Sprintf("assets/%s: %v", src.path, err))
		}
		for key, texts := range byKey {
			for _, lang := range signflow.Languages {
				out[lang][key] = texts[lang]
			}
		}
	}
	return out
}

// tr returns the strings of lang, Uzbek for an unknown language.
func tr(lang string) dict {
	if d, ok := dicts[lang]; ok {
		return d
	}
	return dicts["uz"]
}

// f returns the string of key with each {name} replaced: f(key, name, value, ...).
func (d dict) f(key string, pairs ...string) string {
	s := d[key]
	for i := 0; i+1 < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, "{"+pairs[i]+"}", pairs[i+1])
	}
	return s
}

// or returns the string of key, or fallback when there is none.
func (d dict) or(key, fallback string) string {
	if s := d[key]; s != "" {
		return s
	}
	return fallback
}

// languageNames are the names of the languages in themselves.
var languageNames = map[string]string{"uz": "Oʻzbekcha", "ru": "Русский", "en": "English"}

// requestLang is the page language: ?lang=, then the party's remembered
// choice, then Accept-Language, then Uzbek.
func requestLang(c echo.Context) string {
	if l := c.QueryParam("lang"); slices.Contains(signflow.Languages, l) {
		return l
	}
	if l := cookie(c, langCookie); slices.Contains(signflow.Languages, l) {
		return l
	}
	for _, part := range strings.Split(c.Request().Header.Get("Accept-Language"), ",") {
		tag := strings.ToLower(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]))
		if l := strings.SplitN(tag, "-", 2)[0]; slices.Contains(signflow.Languages, l) {
			return l
		}
	}
	return "uz"
}

// pageLang is the language of a page; a ?lang= choice is remembered for a year.
func (h *handler) pageLang(c echo.Context) string {
	lang := requestLang(c)
	if q := c.QueryParam("lang"); q == lang && cookie(c, langCookie) != lang {
		h.setCookie(c, langCookie, lang, 365*24*3600, http.SameSiteLaxMode)
	}
	return lang
}
