package signflow

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// SMSKind names one of the texts the appliance sends by SMS. Gateways such
// as Eskiz send only texts registered with them, so every kind is listed
// per language in docs/sms.md and each can be replaced in configuration.
type SMSKind string

// The texts sent by SMS.
const (
	SMSSignCode        SMSKind = "signCode"        // {code}, {number}
	SMSCabinetCode     SMSKind = "cabinetCode"     // {code}
	SMSSignLink        SMSKind = "signLink"        // {number}, {url}
	SMSCabinetInvite   SMSKind = "cabinetInvite"   // {owner}, {number}, {url}
	SMSReminder        SMSKind = "reminder"        // {number}, {url}
	SMSPaymentReminder SMSKind = "paymentReminder" // {amount}, {date}, {number}, {url}
	SMSRejectCode      SMSKind = "rejectCode"      // {code}, {number}
)

// SMSKinds lists every kind, in the order docs/sms.md gives them.
var SMSKinds = []SMSKind{SMSSignCode, SMSCabinetCode, SMSSignLink, SMSCabinetInvite, SMSReminder, SMSPaymentReminder, SMSRejectCode}

// SMSTexts holds the text of each kind per language ("uz", "ru", "en"),
// with {placeholders} still in it.
type SMSTexts map[SMSKind]map[string]string

// Render fills the text of kind in lang (uz when lang has none) with vars,
// given without braces: {"code": "12345"}.
func (t SMSTexts) Render(kind SMSKind, lang string, vars map[string]string) string {
	byLang := t[kind]
	text, ok := byLang[lang]
	if !ok {
		text = byLang["uz"]
	}
	if len(vars) == 0 {
		return text
	}
	pairs := make([]string, 0, 2*len(vars))
	for k, v := range vars {
		pairs = append(pairs, "{"+k+"}", v)
	}
	return strings.NewReplacer(pairs...).Replace(text)
}

// smsPlaceholders are the placeholders each kind fills; the first of each
// are those its text cannot do without (a code, or where to go).
var smsPlaceholders = map[SMSKind]struct{ needs, may []string }{
	SMSSignCode:        {needs: []string{"code"}, may: []string{"number"}},
	SMSCabinetCode:     {needs: []string{"code"}},
	SMSSignLink:        {needs: []string{"url"}, may: []string{"number"}},
	SMSCabinetInvite:   {needs: []string{"url"}, may: []string{"owner", "number"}},
	SMSReminder:        {needs: []string{"url"}, may: []string{"number"}},
	SMSPaymentReminder: {needs: []string{"amount", "url"}, may: []string{"date", "number"}},
	SMSRejectCode:      {needs: []string{"code"}, may: []string{"number"}},
}

var placeholderPattern = regexp.MustCompile(`\{[^{}]*\}`)

// CheckSMSText tells what is wrong with text as the text of kind: a
// placeholder it needs is missing, or one it names is not filled for it.
func CheckSMSText(kind SMSKind, text string) error {
	p, ok := smsPlaceholders[kind]
	if !ok {
		return fmt.Errorf("%q is not a kind of SMS text", kind)
	}
	for _, name := range p.needs {
		if !strings.Contains(text, "{"+name+"}") {
			return fmt.Errorf("the text must contain {%s}", name)
		}
	}
	for _, ph := range placeholderPattern.FindAllString(text, -1) {
		name := ph[1 : len(ph)-1]
		if !slices.Contains(p.needs, name) && !slices.Contains(p.may, name) {
			return fmt.Errorf("%s is not filled in this text; it may use %s", ph, strings.Join(SMSPlaceholders(kind), ", "))
		}
	}
	return nil
}

// SMSPlaceholders lists the placeholders of kind, as {name}.
func SMSPlaceholders(kind SMSKind) []string {
	p := smsPlaceholders[kind]
	var out []string
	for _, name := range append(slices.Clone(p.needs), p.may...) {
		out = append(out, "{"+name+"}")
	}
	return out
}
