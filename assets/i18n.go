package assets

import "embed"

// I18n holds every string people read, in uz, ru and en, under i18n/:
// document.json (the contract as a person reads it: labels, statuses,
// methods, units, audit events), and the words of each page of its own
// (sign.json, cabinet.json, verify.json, ...), the SMS texts (sms.json) and
// what payment providers show the payer (payments.json). A key lives in one
// file only.
//
//go:embed i18n
var I18n embed.FS
