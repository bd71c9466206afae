package assets

import "embed"

// Sign holds the signing page under sign/: page.html (an html/template),
// steps.html (the signing steps' partials, which the cabinet uses too),
// sign.css, sign.js, and the identity popup's idp.html and idp.js.
//
//go:embed sign
var Sign embed.FS

// SDK is the integrator SDK served at /sdk.js. "__SOURCE__" in it stands for
// the postMessage source, filled in when it is served.
//
//go:embed sdk.js
var SDK []byte

// DemoPage is the html/template of the /demo integrator page.
//
//go:embed demo/index.html
var DemoPage []byte
