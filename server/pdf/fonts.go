package pdf

import (
	"fmt"
	"sync"

	"github.com/signintech/gopdf"

	"contracts/assets"
)

// Font families registered in every document.
const (
	fontRegular = "DejaVuSans"
	fontBold    = "DejaVuSans-Bold"
)

// parsedFonts parses the embedded TTFs once per process. gopdf.FontContainer
// keeps each parsed font (tables, cmap, widths, glyph offsets); every document
// then takes a copy of the parsed font with AddTTFFontFromFontContainer, which
// only resets the per-document glyph subset. The parsed tables are only read
// afterwards, so documents may be rendered concurrently.
var parsedFonts = sync.OnceValues(func() (*gopdf.FontContainer, error) {
	fc := &gopdf.FontContainer{}
	if err := fc.AddTTFFontData(fontRegular, assets.DejaVuSans); err != nil {
		return nil, fmt.Errorf("parse %s: %w", fontRegular, err)
	}
	if err := fc.AddTTFFontData(fontBold, assets.DejaVuSansBold); err != nil {
		return nil, fmt.Errorf("parse %s: %w", fontBold, err)
	}
	return fc, nil
})

// addFonts registers the regular and bold faces in pdf.
func addFonts(pdf *gopdf.GoPdf) error {
	fc, err := parsedFonts()
	if err != nil {
		return err
	}
	for _, family := range []string{fontRegular, fontBold} {
		if err := pdf.AddTTFFontFromFontContainer(family, fc); err != nil {
			return fmt.Errorf("add font %s: %w", family, err)
		}
	}
	return nil
}
