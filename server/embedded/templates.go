package embedded

import (
	"net/http"

	"contracts/server"
	"contracts/server/wire"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// published is what the embedded interface shows: only templates a
// contract can be made from.
var published = signflow.TemplateFilter{PublishedOnly: true}

// templateItem is the spec's "Template (embedded list item)".
type templateItem struct {
	ID                         string `json:"id"`
	NameUz                     string `json:"nameUz"`
	NameRu                     string `json:"nameRu"`
	NameEn                     string `json:"nameEn"`
	IndividualVerificationType string `json:"individualVerificationType"`
	LegalVerificationType      string `json:"legalVerificationType"`
	ProductEnabled             bool   `json:"productEnabled"`
	ProductRequired            bool   `json:"productRequired"`
	PaymentScheduleEnabled     bool   `json:"paymentScheduleEnabled"`
	WitnessCount               int32  `json:"witnessCount"`
}

// fieldItem is the spec's "Template field" with the embedded-only deleted
// flag and dates.
type fieldItem struct {
	ID               string    `json:"id"`
	ParentKey        *string   `json:"parentKey"`
	TemplateID       string    `json:"templateId"`
	NameUz           string    `json:"nameUz"`
	NameRu           string    `json:"nameRu"`
	NameEn           string    `json:"nameEn"`
	KeyName          string    `json:"keyName"`
	Type             string    `json:"type"`
	Position         string    `json:"position"`
	ProductField     bool      `json:"productField"`
	Required         bool      `json:"required"`
	Deleted          bool      `json:"deleted"`
	CreatedDate      wire.Time `json:"createdDate"`
	LastModifiedDate wire.Time `json:"lastModifiedDate"`
}

// listTemplates is GET /v1/templates: the app's allowed, published templates.
func (h *handler) listTemplates(c echo.Context) error {
	list, err := h.svc.Templates(access(c), published)
	if err != nil {
		return err
	}
	out := make([]templateItem, 0, len(list))
	for _, t := range list {
		out = append(out, templateItem{ID: t.ID, NameUz: t.Name.UZ, NameRu: t.Name.RU, NameEn: t.Name.EN,
			IndividualVerificationType: t.IndividualVerificationType, LegalVerificationType: t.LegalVerificationType,
			ProductEnabled: t.ProductEnabled, ProductRequired: t.ProductRequired,
			PaymentScheduleEnabled: t.PaymentScheduleEnabled, WitnessCount: int32(t.WitnessCount)})
	}
	return server.JSON(c, http.StatusOK, out)
}

// templateFields is GET /v1/templates/{templateId}/fields: every field in
// definition order, deleted ones flagged. Unknown (or unpublished) is 404,
// not allowed for the app 403.
func (h *handler) templateFields(c echo.Context) error {
	t, err := h.svc.Template(access(c), c.Param("templateId"), published)
	if err != nil {
		return err
	}
	out := make([]fieldItem, 0, len(t.Fields))
	for _, f := range t.Fields {
		out = append(out, fieldItem{ID: f.ID, ParentKey: f.ParentKey, TemplateID: t.ID, NameUz: f.Name.UZ,
			NameRu: f.Name.RU, NameEn: f.Name.EN, KeyName: f.KeyName, Type: f.Type, Position: f.Position,
			ProductField: f.ProductField, Required: f.Required, Deleted: f.Deleted, CreatedDate: wire.Time(f.CreatedAt),
			LastModifiedDate: wire.Time(f.UpdatedAt)})
	}
	return server.JSON(c, http.StatusOK, out)
}
