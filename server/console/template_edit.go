package console

import (
	"net/http"
	"strconv"

	"contracts/server/document"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// templateDetail is the page of one template: its versions, and Edit,
// which stores the definition as the next version.
type templateDetail struct {
	ID, Name, StatusText string
	Published            bool
	Version, Next        int
	Versions             []versionRow
}

type versionRow struct {
	Version      int
	Name, Date   string
	Fields       int
	Newest, Kept bool // Kept: the version this page just saved
}

// template is GET /console/templates/{id}[?edit=1][&saved=N].
func (h *handler) template(c echo.Context) error {
	v := &templatesView{Form: c.QueryParam("edit") != ""}
	return h.templatePage(c, v, http.StatusOK)
}

// templatePage renders the template of the path's id with v's form, if
// any; the form starts from the newest version's definition.
func (h *handler) templatePage(c echo.Context, v *templatesView, status int) error {
	d := h.start(c, "/console/templates", "nav.templates")
	versions, err := h.svc.AdminTemplateVersions(c.Param("id"))
	if refused(err) {
		return h.missing(c, d, "templateMissing")
	} else if err != nil {
		return err
	}
	newest := versions[len(versions)-1]
	// The status lives on the newest version; older ones keep the one
	// they had when they were replaced.
	cur := &templateDetail{ID: newest.ID, Name: newest.Name.In(d.Lang), Version: newest.Version, Next: newest.Version + 1,
		StatusText: d.T.Or("tplStatus."+newest.Status, newest.Status), Published: newest.Status == signflow.TemplatePublished}
	saved := c.QueryParam("saved")
	for i := len(versions) - 1; i >= 0; i-- {
		t := versions[i]
		row := versionRow{Version: t.Version, Name: t.Name.In(d.Lang), Date: document.Date(t.UpdatedAt), Newest: t == newest}
		for _, f := range t.Fields {
			if !f.Deleted {
				row.Fields++
			}
		}
		if saved != "" && saved == strconv.Itoa(t.Version) {
			row.Kept = true
			d.Notice = d.T.F("templateVersion.saved", "name", row.Name, "version", saved)
		}
		cur.Versions = append(cur.Versions, row)
	}
	if v.Form && v.Definition == "" {
		src, err := newest.Definition().YAML()
		if err != nil {
			return err
		}
		v.Definition = string(src)
	}
	v.Edit = cur
	d.Title = cur.Name + " · " + h.serviceName
	d.Page = v
	return h.render(c, status, "templates", d)
}

// updateTemplate is POST /console/templates/{id} {definition}: Save of
// Edit, the next version of the template.
func (h *handler) updateTemplate(c echo.Context) error {
	text, def, err := definition(c)
	if err == nil {
		var t *signflow.Template
		if t, err = h.svc.UpdateTemplate(c.Param("id"), def); err == nil {
			return c.Redirect(http.StatusSeeOther, "/console/templates/"+t.ID+"?saved="+strconv.Itoa(t.Version))
		}
	}
	if signflow.ErrorCode(err) == signflow.ENOTFOUND {
		return h.missing(c, h.start(c, "/console/templates", "nav.templates"), "templateMissing")
	}
	return h.refusedDefinition(c, text, err, h.templatePage)
}
