package console

import (
	"net/http"
	"strings"

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

// knownRefusals maps signflow's messages of the refusals the console's
// forms can meet to the key of their words. A message not listed falls
// back to signflow's own; the pages' tests find one that changed.
var knownRefusals = map[string]string{
	"name: required, at most 200 characters":                                   "refuse.name",
	"ownerIn: no owner with this number; create it with POST /admin/v1/owners": "refuse.noOwner",
	"scopes: at least one is required":                                         "refuse.noScopes",
	"templateIds: required unless allTemplates is true":                        "refuse.noTemplates",
	"webhookEvents: keys receive every event":                                  "refuse.keyEvents",
	errExpires: "refuse.expires",
	"in: must be 14 digits for an individual":            "refuse.personIN",
	"firstName and lastName: required for an individual": "refuse.personName",
	"phone: required for an individual":                  "refuse.personPhone",
	"in: must be 9 digits for a company":                 "refuse.companyIN",
	"legalName: required for a company":                  "refuse.legalName",
	"type: must be CLIENT or COMPANY":                    "refuse.ownerType",
	"phone: must be a country code and 7 to 15 digits":   "refuse.phone",
	"a field is too long":                                "refuse.tooLong",
}

// knownFields are refusals known by the field they name, whatever
// signflow says of it: every refusal of a webhook URL asks for the same.
var knownFields = map[string]string{"webhookUrl:": "refuse.webhookURL"}

// errExpires refuses an expiry date the console cannot read.
const errExpires = "expiresAt: a date as 2006-01-02"

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
	msg := signflow.ErrorMessage(err)
	if key, ok := knownRefusals[msg]; ok {
		return t[key]
	}
	for field, key := range knownFields {
		if strings.HasPrefix(msg, field) {
			return t[key]
		}
	}
	return t.F("refuse.detail", "detail", msg)
}

// missing renders the page of a record that is not there, titled by the
// key of its words.
func (h *handler) missing(c echo.Context, d *pageData, titleKey string) error {
	d.Title = d.T[titleKey]
	return h.render(c, http.StatusNotFound, "missing", d)
}
