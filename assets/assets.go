// Package assets embeds the files the binary serves or prints from: the
// signing page, the SDK, the demo template and the PDF fonts.
package assets

import _ "embed"

// DemoTemplate is the template definition seeded by serve --demo.
//
//go:embed demo/template.yaml
var DemoTemplate []byte
