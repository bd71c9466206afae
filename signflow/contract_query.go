package signflow

import "github.com/google/uuid"

// check refuses a query with an unknown status, a template id that is not
// a UUID or a page out of bounds.
func (q *ContractQuery) check() error {
	for _, st := range q.Statuses {
		if !contains(ContractStatuses, st) {
			return Errorf(EINVALID, "statuses: unknown status %q", st)
		}
	}
	if q.TemplateID != "" && uuid.Validate(q.TemplateID) != nil {
		return Errorf(EINVALID, "templateId: must be a UUID")
	}
	if q.Page < 0 || q.Size < 1 {
		return Errorf(EINVALID, "page must be 0 or more and size 1 or more")
	}
	return nil
}
