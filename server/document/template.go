package document

import (
	"html/template"
	"io/fs"

	"contracts/assets"
)

// partials are the templates of assets/document/card.html: "doc-card"
// (the whole document), and its parts "doc-head" (number, title, date,
// status) and "doc-parties", which the verify page shows alone. Each
// takes a *Doc.
var partials = template.Must(template.New("card.html").ParseFS(assets.Document, "document/card.html"))

// Page parses a page's template with the document's partials beside it,
// and the page's own partials (files of {{define}}s) when given.
func Page(name string, src []byte, more ...[]byte) *template.Template {
	t := template.Must(partials.Clone())
	for _, p := range more {
		template.Must(t.New("").Parse(string(p)))
	}
	return template.Must(t.New(name).Parse(string(src)))
}

// CSS is the document card's look (assets/document/document.css), with
// the base look of the pages that show it; each page serves it with its
// own files.
func CSS() []byte {
	b, err := fs.ReadFile(assets.Document, "document/document.css")
	if err != nil {
		panic(err) // embedded at build time
	}
	return b
}
