package i18n

import (
	"net/url"

	"contracts/signflow"
)

// LanguageNames are the names of the languages in themselves.
var LanguageNames = map[string]string{"uz": "Oʻzbekcha", "ru": "Русский", "en": "English"}

// LangLink is one language of a page's switcher: the same page in it.
type LangLink struct {
	Code, Name, URL string
	Current         bool
}

// LangLinks are the page at path with the query q, in each language; lang
// is the page's own. q is not changed.
func LangLinks(path string, q url.Values, lang string) []LangLink {
	var out []LangLink
	for _, l := range signflow.Languages {
		v := url.Values{}
		for k, vs := range q {
			v[k] = vs
		}
		v.Set("lang", l)
		out = append(out, LangLink{Code: l, Name: LanguageNames[l], URL: path + "?" + v.Encode(), Current: l == lang})
	}
	return out
}
