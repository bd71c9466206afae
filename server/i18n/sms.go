package i18n

import (
	"contracts/assets"
	"contracts/signflow"
)

var smsFile = Source{assets.I18n, "i18n/sms.json"}

// smsSet holds the SMS texts, keyed "sms.<kind>".
var smsSet = Load(smsFile)

// SMSTexts are the texts the appliance sends by SMS, each replaced where
// replace (sms.texts.<kind>.<lang>, checked by the configuration) has one.
func SMSTexts(replace map[string]map[string]string) signflow.SMSTexts {
	out := signflow.SMSTexts{}
	for _, kind := range signflow.SMSKinds {
		out[kind] = map[string]string{}
		for _, lang := range signflow.Languages {
			text := smsSet[lang]["sms."+string(kind)]
			if r := replace[string(kind)][lang]; r != "" {
				text = r
			}
			out[kind][lang] = text
		}
	}
	return out
}
