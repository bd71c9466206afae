package signpage

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"contracts/assets"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// dict is every string of the page in one language.
type dict map[string]string

// dicts holds the page's strings per language, from assets/sign/i18n.json.
var dicts = loadDicts()

func loadDicts() map[string]dict {
	data, err := fs.ReadFile(assets.Sign, "sign/i18n.json")
	if err != nil {
		panic(err)
	}
	var byKey map[string]map[string]string
	if err := json.Unmarshal(data, &byKey); err != nil {
		panic(fmt.Sprintf("assets/sign/i18n.json: %v", err))
	}
	out := map[string]dict{}
	for _, lang := range signflow.Languages {
		out[lang] = dict{}
		for key, texts := range byKey {
			out[lang][key] = texts[lang]
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

// or returns the string of key, or the key's suffix when there is none.
func (d dict) or(key, fallback string) string {
	if s := d[key]; s != "" {
		return s
	}
	return fallback
}

// requestLang picks the page language of a request that has no session:
// ?lang=, then Accept-Language, then Uzbek.
func requestLang(c echo.Context) string {
	if l := c.QueryParam("lang"); dicts[l] != nil {
		return l
	}
	for _, part := range strings.Split(c.Request().Header.Get("Accept-Language"), ",") {
		tag := strings.ToLower(strings.TrimSpace(strings.SplitN(part, ";", 2)[0]))
		if l := strings.SplitN(tag, "-", 2)[0]; dicts[l] != nil {
			return l
		}
	}
	return "uz"
}

// nbsp groups thousands so that an amount never breaks across lines.
const nbsp = "\u00a0"

// money prints minor units as major units with two decimals, thousands
// grouped, and the currency: "1 500 000.00 UZS".
func money(minor int64, currency string) string {
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	digits := strconv.FormatInt(minor/100, 10)
	var b strings.Builder
	b.WriteString(sign)
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteString(nbsp)
		}
		b.WriteRune(r)
	}
	fmt.Fprintf(&b, ".%02d", minor%100)
	if currency != "" {
		b.WriteString(nbsp + currency)
	}
	return b.String()
}

// date prints the UTC day of t as DD.MM.YYYY.
func date(t time.Time) string { return t.UTC().Format("02.01.2006") }

// quantity prints a quantity without trailing zeros.
func quantity(q float64) string { return strconv.FormatFloat(q, 'f', -1, 64) }

// fieldValue prints a template value for reading: dates as dates, check
// boxes as yes or no, pairs and multiple choices joined.
func fieldValue(d dict, typ, v string) string {
	switch {
	case typ == "CHECKBOX":
		if v == "true" {
			return d["yes"]
		}
		return d["no"]
	case typ == "DATE":
		if t, err := time.Parse(time.DateOnly, v); err == nil {
			return date(t)
		}
	case strings.HasPrefix(typ, "DOUBLE_INPUT_"):
		parts := strings.SplitN(v, ";", 2)
		for i, p := range parts {
			if t, err := time.Parse(time.DateOnly, p); err == nil && typ == "DOUBLE_INPUT_DATE" {
				parts[i] = date(t)
			}
		}
		return strings.Join(parts, " – ")
	case typ == "MULTISELECT":
		return strings.ReplaceAll(v, ";", ", ")
	}
	return v
}

// anyText prints a product value of any JSON type.
func anyText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case bool, float64, json.Number:
		return fmt.Sprint(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
