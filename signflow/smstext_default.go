package signflow

// DefaultSMSTexts are the texts of a Service given none: each kind's name
// and its placeholders, the same in every language. They serve tests and
// tools; the appliance passes the texts people read, from
// assets/i18n/sms.json and configuration.
func DefaultSMSTexts() SMSTexts {
	out := SMSTexts{}
	for _, kind := range SMSKinds {
		text := string(kind)
		for _, ph := range SMSPlaceholders(kind) {
			text += " " + ph
		}
		out[kind] = map[string]string{}
		for _, lang := range Languages {
			out[kind][lang] = text
		}
	}
	return out
}
