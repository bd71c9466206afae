package assets

import "embed"

// Cabinet holds the cabinet's page under cabinet/: page.html (an
// html/template), cabinet.css and cabinet.js. The cabinet also serves
// sign/sign.css, the look of the actions the two pages share.
//
//go:embed cabinet
var Cabinet embed.FS
