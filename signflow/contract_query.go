package signflow

import (
	"slices"
	"unicode/utf8"

	"github.com/google/uuid"
)

// MaxSearch bounds a contract list's search text, in characters, for
// every caller: the key interface, the console, the cabinet.
const MaxSearch = 200

// check refuses a query with a page out of bounds, a search text too
// long, an unknown status or a template id that is not a UUID.
func (q *ContractQuery) check() error {
	if q.Page < 0 {
		return Errorf(EINVALID, "page: must be 0 or more")
	}
	if q.Size < 1 {
		return Errorf(EINVALID, "size: must be 1 or more")
	}
	if utf8.RuneCountInString(q.Search) > MaxSearch {
		return Errorf(EINVALID, "search: at most %d characters", MaxSearch)
	}
	for _, st := range q.Statuses {
		if !slices.Contains(ContractStatuses, st) {
			return Errorf(EINVALID, "statuses: unknown status %q", st)
		}
	}
	if q.TemplateID != "" && uuid.Validate(q.TemplateID) != nil {
		return Errorf(EINVALID, "templateId: must be a UUID")
	}
	return nil
}
