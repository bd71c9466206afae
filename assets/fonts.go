package assets

import _ "embed"

// DejaVuSans is the DejaVu Sans regular TrueType font (Debian fonts-dejavu-core,
// licence in fonts/LICENSE). It covers Latin, Uzbek Latin (ʻ U+02BB, ‘ U+2018)
// and Cyrillic, so it is the text face of generated PDFs.
//
//go:embed fonts/DejaVuSans.ttf
var DejaVuSans []byte

// DejaVuSansBold is the bold face matching DejaVuSans, for headings and totals.
//
//go:embed fonts/DejaVuSans-Bold.ttf
var DejaVuSansBold []byte
