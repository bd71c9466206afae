package assets

import (
	"embed"
	_ "embed"
)

// Document holds the document card every page shows a contract with,
// under document/: card.html (html/template partials) and document.css
// (the card's look, and the base look of every page that shows one).
//
//go:embed document
var Document embed.FS

// CommonJS is the script the signing page and the cabinet share: requests
// with their refusal reasons, messages, code inputs, resend countdowns.
//
//go:embed common.js
var CommonJS []byte
