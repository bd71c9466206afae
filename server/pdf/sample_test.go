package pdf

import (
	"contracts/internal/fixture"
	"contracts/server/document"
)

// Names of the sample contract that exercise the font.
const (
	sellerName  = fixture.SampleSeller
	buyerName   = fixture.SampleBuyer
	witnessName = fixture.SampleWitness
)

// sampleDocument is the document of a realistic contract in lang with n
// products and the body repeated paragraphs times.
func sampleDocument(lang string, n, paragraphs int) *document.Doc {
	v, audit := fixture.SampleView(n, paragraphs)
	return document.New(v, audit, lang, document.Options{VerifyURL: "https://contracts.example.uz/verify/" + v.ID + "?h=" + v.Hash[:16]})
}
