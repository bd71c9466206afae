package signpage

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"contracts/assets"
	"contracts/server/i18n"

	"github.com/labstack/echo/v4"
)

// dict is every string of the page in one language.
type dict = i18n.Dict

// dicts holds the page's strings per language, from assets/sign/i18n.json.
var dicts = i18n.Load(i18n.Source{FS: assets.Sign, Path: "sign/i18n.json"})

// tr returns the strings of lang, Uzbek for an unknown language.
func tr(lang string) dict { return dicts.For(lang) }

// requestLang picks the page language of a request that has no session:
// ?lang=, then Accept-Language, then Uzbek.
func requestLang(c echo.Context) string {
	if l := c.QueryParam("lang"); dicts[l] != nil {
		return l
	}
	if l := i18n.FromAcceptLanguage(c.Request().Header.Get("Accept-Language")); l != "" {
		return l
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
