package signflow

import (
	"sort"

	"github.com/google/uuid"
)

// TemplateFilter narrows what the template reads return.
type TemplateFilter struct {
	// PublishedOnly hides every template that is not PUBLISHED: listed
	// templates and their fields are only the ones a contract can use.
	PublishedOnly bool
}

func (f TemplateFilter) keep(t *Template) bool {
	return !f.PublishedOnly || t.Status == TemplatePublished
}

// Templates returns the templates the caller may use (TEMPLATES_READ and
// its template allow-list), oldest first.
func (s *Service) Templates(a *Access, f TemplateFilter) ([]*Template, error) {
	if err := a.Require(ScopeTemplatesRead); err != nil {
		return nil, err
	}
	var all []*Template
	if err := s.store.View(func(tx Tx) (err error) { all, err = tx.Templates(); return err }); err != nil {
		return nil, err
	}
	out := make([]*Template, 0, len(all))
	for _, t := range all {
		if f.keep(t) && a.TemplateAllowed(t.ID) {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.Before(out[j].CreatedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// Template returns one template for a caller with TEMPLATES_READ. A
// malformed, unknown or filtered-out id is ENOTFOUND; a template outside
// the caller's allow-list is EFORBIDDEN.
func (s *Service) Template(a *Access, id string, f TemplateFilter) (*Template, error) {
	if err := a.Require(ScopeTemplatesRead); err != nil {
		return nil, err
	}
	if uuid.Validate(id) != nil {
		return nil, Errorf(ENOTFOUND, "Template not found.")
	}
	var t *Template
	err := s.store.View(func(tx Tx) (err error) { t, err = tx.Template(id); return err })
	if err != nil {
		return nil, notFound(err, "Template not found.")
	}
	if !f.keep(t) {
		return nil, Errorf(ENOTFOUND, "Template not found.")
	}
	if !a.TemplateAllowed(t.ID) {
		return nil, Errorf(EFORBIDDEN, "The template is not allowed for this credential.")
	}
	return t, nil
}
