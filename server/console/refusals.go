package console

import (
	"net/http"

	"contracts/server/i18n"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// A refusal of an act is told in the page's language. signflow's messages
// are English and written for the admin API, so the console has its own
// words (the refuse.* strings) for each refusal its forms can meet, and
// shows signflow's message, after a lead in the page's language, only for
// a detail that names a field or a line: a template definition's problem
// (beside the line it names) or a field no form of the console sends.

// knownRefusals maps the keys of the refusals the console's forms can
// meet (signflow.RefusalKeys and the console's own) to the key of their
// words. A refusal without a key falls back to signflow's message.
var knownRefusals = map[string]string{
	signflow.KeyName:          "refuse.name",
	signflow.KeyNoOwner:       "refuse.noOwner",
	signflow.KeyNoScopes:      "refuse.noScopes",
	signflow.KeyNoTemplates:   "refuse.noTemplates",
	signflow.KeyKeyEvents:     "refuse.keyEvents",
	signflow.KeyWebhookURL:    "refuse.webhookURL",
	keyExpires:                "refuse.expires",
	signflow.KeyPersonIN:      "refuse.personIN",
	signflow.KeyPersonName:    "refuse.personName",
	signflow.KeyPersonPhone:   "refuse.personPhone",
	signflow.KeyCompanyIN:     "refuse.companyIN",
	signflow.KeyLegalName:     "refuse.legalName",
	signflow.KeyClientType:    "refuse.ownerType",
	signflow.KeyPhone:         "refuse.phone",
	signflow.KeyClientTooLong: "refuse.tooLong",
}

// errExpires refuses an expiry date the console cannot read.
var errExpires = &signflow.Error{Code: signflow.EINVALID, Message: "expiresAt: a date as 2006-01-02", Key: keyExpires}

// keyExpires is the console's own refusal key, beside signflow's.
const keyExpires = "console.expires"

// refused reports whether err is a refusal the page tells of (bad input,
// a record not there, an act not allowed) rather than a failure.
func refused(err error) bool {
	switch signflow.ErrorCode(err) {
	case signflow.EINVALID, signflow.ENOTFOUND, signflow.EFORBIDDEN:
		return true
	}
	return false
}

// refusalText is what the page says of the refusal err.
func refusalText(t i18n.Dict, err error) string {
	if key, ok := knownRefusals[signflow.ErrorKey(err)]; ok {
		return t[key]
	}
	return t.F("refuse.detail", "detail", signflow.ErrorMessage(err))
}

// missing renders the page of a record that is not there, titled by the
// key of its words.
func (h *handler) missing(c echo.Context, d *pageData, titleKey string) error {
	d.Title = d.T[titleKey]
	return h.render(c, http.StatusNotFound, "missing", d)
}
