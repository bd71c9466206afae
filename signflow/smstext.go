package signflow

import "strings"

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
)

// SMSKinds lists every kind, in the order docs/sms.md gives them.
var SMSKinds = []SMSKind{SMSSignCode, SMSCabinetCode, SMSSignLink, SMSCabinetInvite, SMSReminder, SMSPaymentReminder}

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
