package signflow

import "github.com/google/uuid"

// UpdateTemplate stores def as the next version of template id. Fields
// keep their ids where their keyName stays; the status stays unless def
// names one. Contracts made earlier keep the version they were made from.
func (s *Service) UpdateTemplate(id string, def *TemplateDefinition) (*Template, error) {
	if uuid.Validate(id) != nil {
		return nil, Errorf(ENOTFOUND, "Template not found.")
	}
	if err := def.Validate(); err != nil {
		return nil, err
	}
	var out *Template
	err := s.store.Update(func(tx Tx) error {
		cur, err := tx.Template(id)
		if err != nil {
			return notFound(err, "Template not found.")
		}
		t := def.Template(id, s.opt.Now)
		t.Version, t.CreatedAt = cur.Version+1, cur.CreatedAt
		if def.Status == "" {
			t.Status = cur.Status
		}
		for i := range t.Fields {
			if old := cur.FieldByKey(t.Fields[i].KeyName); old != nil {
				t.Fields[i].ID, t.Fields[i].CreatedAt = old.ID, old.CreatedAt
			}
		}
		out = t
		return tx.PutTemplate(t)
	})
	return out, err
}

// AdminTemplateVersions returns every version of template id, oldest first.
func (s *Service) AdminTemplateVersions(id string) ([]*Template, error) {
	if uuid.Validate(id) != nil {
		return nil, Errorf(ENOTFOUND, "Template not found.")
	}
	var out []*Template
	err := s.store.View(func(tx Tx) (err error) { out, err = tx.TemplateVersions(id); return err })
	if err == nil && len(out) == 0 {
		err = Errorf(ENOTFOUND, "Template not found.")
	}
	return out, err
}

// templateOf is the version of its template contract c was made from.
func templateOf(tx Tx, c *Contract) (*Template, error) {
	t, err := tx.Template(c.TemplateID)
	if err != nil || t.Version == c.FromVersion() {
		return t, err
	}
	return tx.TemplateVersion(c.TemplateID, c.FromVersion())
}

// FromVersion is the version of its template the contract was made from.
func (c *Contract) FromVersion() int { return max(c.TemplateVersion, 1) }
