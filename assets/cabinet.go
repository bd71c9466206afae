package assets

import "embed"

// Cabinet holds the cabinet's page under cabinet/: page.html (an
// html/template), cabinet.css and cabinet.js, and i18n.json, the cabinet's
// own strings in uz, ru and en. The cabinet also serves sign/sign.css and
// takes the signing page's strings from sign/i18n.json for what the two
// pages share.
//
//go:embed cabinet
var Cabinet embed.FS
