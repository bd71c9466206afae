package keyapi

import (
	"net/http"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// templateItem is the spec's "Template (key interface list item)". The
// template's body (its report source) is never returned.
type templateItem struct {
	ID                     string   `json:"id"`
	NameUz                 string   `json:"nameUz"`
	NameRu                 string   `json:"nameRu"`
	NameEn                 string   `json:"nameEn"`
	Type                   string   `json:"type"`
	Status                 string   `json:"status"`
	EnabledCurrencies      []string `json:"enabledCurrencies"` // null: no restriction
	ProductEnabled         bool     `json:"productEnabled"`
	ProductRequired        bool     `json:"productRequired"`
	PaymentScheduleEnabled bool     `json:"paymentScheduleEnabled"`
	WitnessEnabled         bool     `json:"witnessEnabled"`
	InitialPaymentEnabled  bool     `json:"initialPaymentEnabled"`
	WitnessCount           int      `json:"witnessCount"`
}

// fieldItem is the spec's "Template field" without deleted, createdDate
// and lastModifiedDate, which the spec marks as embedded-only.
type fieldItem struct {
	ID           string  `json:"id"`
	ParentKey    *string `json:"parentKey"`
	TemplateID   string  `json:"templateId"`
	NameUz       string  `json:"nameUz"`
	NameRu       string  `json:"nameRu"`
	NameEn       string  `json:"nameEn"`
	KeyName      string  `json:"keyName"`
	Type         string  `json:"type"`
	Position     string  `json:"position"`
	ProductField bool    `json:"productField"`
	Required     bool    `json:"required"`
}

// published is the key interface's view of templates: PUBLISHED only.
var published = signflow.TemplateFilter{PublishedOnly: true}

// listTemplates is GET /v1/templates: the key's PUBLISHED templates.
func (h *handler) listTemplates(c echo.Context) error {
	list, err := h.svc.Templates(access(c), published)
	if err != nil {
		return err
	}
	out := make([]templateItem, 0, len(list))
	for _, t := range list {
		out = append(out, templateItem{ID: t.ID, NameUz: t.Name.UZ, NameRu: t.Name.RU, NameEn: t.Name.EN, Type: t.Type,
			Status: t.Status, EnabledCurrencies: t.EnabledCurrencies, ProductEnabled: t.ProductEnabled,
			ProductRequired: t.ProductRequired, PaymentScheduleEnabled: t.PaymentScheduleEnabled,
			WitnessEnabled: t.WitnessEnabled, InitialPaymentEnabled: t.InitialPaymentEnabled, WitnessCount: t.WitnessCount})
	}
	return server.JSON(c, http.StatusOK, out)
}

// templateFields is GET /v1/templates/{templateId}/fields: the live fields
// of a PUBLISHED template of the key, in their defined order. An unknown
// or unpublished template is 404; one outside the key's templates, 403.
func (h *handler) templateFields(c echo.Context) error {
	t, err := h.svc.Template(access(c), c.Param("templateId"), published)
	if err != nil {
		return err
	}
	out := make([]fieldItem, 0, len(t.Fields))
	for _, f := range t.Fields {
		if f.Deleted {
			continue
		}
		out = append(out, fieldItem{ID: f.ID, ParentKey: f.ParentKey, TemplateID: t.ID, NameUz: f.Name.UZ, NameRu: f.Name.RU,
			NameEn: f.Name.EN, KeyName: f.KeyName, Type: f.Type, Position: f.Position, ProductField: f.ProductField, Required: f.Required})
	}
	return server.JSON(c, http.StatusOK, out)
}
