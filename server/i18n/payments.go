package i18n

import (
	"strconv"

	"contracts/assets"
)

var paymentsFile = Source{assets.I18n, "i18n/payments.json"}

// paymentsSet holds the texts payment providers show the payer, keyed
// "payme.error.<code>".
var paymentsSet = Load(paymentsFile)

// PaymeMessage is the message of a Payme Merchant API error code in each
// of Payme's languages (ru, uz, en), as its error answer carries it.
func PaymeMessage(code int) map[string]string {
	key := "payme.error." + strconv.Itoa(code)
	out := make(map[string]string, 3)
	for _, lang := range []string{"ru", "uz", "en"} {
		out[lang] = paymentsSet[lang][key]
	}
	return out
}
