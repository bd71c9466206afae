package console

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"

	"contracts/server/document"
	"contracts/server/i18n"
	"contracts/server/pdf"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// templatesView is the templates page: the list, and the form of a new
// template with its refusal or its preview.
type templatesView struct {
	Rows       []templateRow
	Form       bool // the New template form is open
	Definition string
	Problem    *problem
	Preview    *document.Doc
	PreviewPDF []pdfLink
	Created    string // the name of the template just saved
	// Edit is the template whose page this is, with its versions; nil
	// on the page of every template.
	Edit *templateDetail
}

type templateRow struct {
	ID, Name, Type, Status, StatusText, Created string
	Published                                   bool
	Fields                                      int
}

// problem is a refusal of a definition beside the lines it concerns.
type problem struct {
	Message string
	Line    int
	Lines   []sourceLine
}

type sourceLine struct {
	N    int
	Text string
	Bad  bool
}

// templates is GET /console/templates[?new=1].
func (h *handler) templates(c echo.Context) error {
	v := &templatesView{Form: c.QueryParam("new") != ""}
	if id := c.QueryParam("created"); id != "" {
		v.Created = id
	}
	return h.templatesPage(c, v, http.StatusOK)
}

func (h *handler) templatesPage(c echo.Context, v *templatesView, status int) error {
	d := h.start(c, "/console/templates", "nav.templates")
	list, err := h.svc.AdminTemplates()
	if err != nil {
		return err
	}
	for _, t := range list {
		v.Rows = append(v.Rows, templateRow{ID: t.ID, Name: t.Name.In(d.Lang), Type: t.Type, Status: t.Status,
			StatusText: d.T.Or("tplStatus."+t.Status, t.Status), Published: t.Status == signflow.TemplatePublished,
			Fields: len(t.Fields), Created: document.Date(t.CreatedAt)})
		if t.ID == v.Created {
			d.Notice = d.T.F("templateSaved", "name", t.Name.In(d.Lang))
		}
	}
	if v.Definition == "" && v.Form {
		v.Definition = starterDefinition
	}
	d.Page = v
	return h.render(c, status, "templates", d)
}

// definition reads the form's definition: JSON when it starts with "{",
// else YAML.
func definition(c echo.Context) (string, *signflow.TemplateDefinition, error) {
	text := strings.ReplaceAll(c.FormValue("definition"), "\r\n", "\n")
	isYAML := !strings.HasPrefix(strings.TrimSpace(text), "{")
	def, err := signflow.ParseTemplateDefinition([]byte(text), isYAML)
	if err == nil {
		err = def.Validate()
	}
	return text, def, err
}

// formPage renders a page with the definition form: the templates page
// (New template) or a template's page (Edit).
type formPage func(c echo.Context, v *templatesView, status int) error

// refusedDefinition shows the form again with the refusal beside its line.
func (h *handler) refusedDefinition(c echo.Context, text string, err error, page formPage) error {
	if !refused(err) {
		return err
	}
	return page(c, &templatesView{Form: true, Definition: text, Problem: problemOf(text, err, h.words(c))}, http.StatusBadRequest)
}

// problemOf is the refusal err of a definition: signflow's detail beside
// the lines around the one it names, or the refusal in the page's words
// when it names none.
func problemOf(text string, err error, t i18n.Dict) *problem {
	line := signflow.ErrorLine(err)
	p := &problem{Message: refusalText(t, err), Line: line}
	if line <= 0 {
		return p
	}
	p.Message = strings.TrimPrefix(signflow.ErrorMessage(err), "line "+strconv.Itoa(line)+": ")
	lines := strings.Split(text, "\n")
	for n := max(line-2, 1); n <= min(line+2, len(lines)); n++ {
		p.Lines = append(p.Lines, sourceLine{N: n, Text: lines[n-1], Bad: n == line})
	}
	return p
}

// saveTemplate is POST /console/templates {definition}.
func (h *handler) saveTemplate(c echo.Context) error {
	text, def, err := definition(c)
	if err != nil {
		return h.refusedDefinition(c, text, err, h.templatesPage)
	}
	t, err := h.svc.CreateTemplate(def)
	if err != nil {
		return h.refusedDefinition(c, text, err, h.templatesPage)
	}
	return c.Redirect(http.StatusSeeOther, "/console/templates?created="+t.ID)
}

// previewTemplate is POST /console/templates/preview {definition}: the
// form again, with the contract as the signing page would show it, filled
// with sample values. POST /console/templates/{id}/preview is the same
// within Edit.
func (h *handler) previewTemplate(c echo.Context) error { return h.preview(c, h.templatesPage) }

func (h *handler) previewEdit(c echo.Context) error { return h.preview(c, h.templatePage) }

func (h *handler) preview(c echo.Context, page formPage) error {
	text, def, err := definition(c)
	if err != nil {
		return h.refusedDefinition(c, text, err, page)
	}
	lang := h.pageLang(c)
	v, err := h.svc.SampleContract(def, lang, sampleWords(lang))
	if err != nil {
		return h.refusedDefinition(c, text, err, page)
	}
	view := &templatesView{Form: true, Definition: text, Preview: document.New(v, nil, lang, document.Options{})}
	for _, l := range signflow.Languages {
		view.PreviewPDF = append(view.PreviewPDF, pdfLink{Lang: l, Label: "PDF " + l})
	}
	return page(c, view, http.StatusOK)
}

// previewPDF is POST /console/templates/preview/pdf {definition, lang}:
// the sample contract's PDF. It is no contract of the appliance: it is
// rendered each time, never cached or sealed.
func (h *handler) previewPDF(c echo.Context) error {
	text, def, err := definition(c)
	if err != nil {
		return h.refusedDefinition(c, text, err, h.templatesPage)
	}
	lang := document.Lang(c.FormValue("lang"))
	v, err := h.svc.SampleContract(def, lang, sampleWords(lang))
	if err != nil {
		return h.refusedDefinition(c, text, err, h.templatesPage)
	}
	var buf bytes.Buffer
	if err := pdf.Contract(&buf, v, nil, lang, ""); err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderContentDisposition, `inline; filename="template-preview.pdf"`)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, "application/pdf", buf.Bytes())
}

// sampleWords are the sample values of a preview in lang.
func sampleWords(lang string) signflow.SampleWords {
	t := i18n.Console.For(lang)
	return signflow.SampleWords{Seller: t["sample.seller"], Address: t["sample.address"], FirstName: t["sample.firstName"],
		LastName: t["sample.lastName"], Product: t["sample.product"], Witness: t["sample.witness"]}
}

func (h *handler) publish(c echo.Context) error {
	return h.templateAct(c, h.svc.PublishTemplate)
}

func (h *handler) unpublish(c echo.Context) error {
	return h.templateAct(c, h.svc.UnpublishTemplate)
}

func (h *handler) templateAct(c echo.Context, act func(string) error) error {
	err := act(c.Param("id"))
	if refused(err) {
		return h.missing(c, h.start(c, "/console/templates", "nav.templates"), "templateMissing")
	} else if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, "/console/templates")
}

// starterDefinition fills a new template's form: a complete definition
// to change.
const starterDefinition = `name: {uz: "Oldi-sotdi shartnomasi", ru: "Договор купли-продажи", en: "Sales contract"}
sellerName: {uz: "Sotuvchi", ru: "Продавец", en: "Seller"}
buyerName: {uz: "Xaridor", ru: "Покупатель", en: "Buyer"}
type: B2C
individualVerificationType: OTP_SMS
enabledCurrencies: [UZS]
productEnabled: true
fields:
  - {keyName: deliveryAddress, type: STRING, name: {uz: "Manzil", ru: "Адрес", en: "Address"}}
body:
  uz: "{{seller.name}} tovarni {{price}} {{currency}} evaziga {{deliveryAddress}} manziliga yetkazadi."
  ru: "{{seller.name}} доставляет товар по адресу {{deliveryAddress}} за {{price}} {{currency}}."
  en: "{{seller.name}} delivers the goods to {{deliveryAddress}} for {{price}} {{currency}}."
`
