package signflow

import (
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
)

// The administrator's reads and acts: what the admin API and the console
// do with the admin token. The administrator reaches every owner's
// contracts, templates, apps and keys.

// ConfirmAdmin is the confirmation the audit trail names for an act of
// the administrator: the admin token.
const ConfirmAdmin = "ADMIN_TOKEN"

// StatsDays is how many days, today included, the per-day counts cover.
const StatsDays = 30

// ContractStats are the appliance's counts of contracts.
type ContractStats struct {
	// ByStatus counts every contract by its status.
	ByStatus map[string]int
	// PerDay counts the contracts created on each UTC day ("2006-01-02")
	// from the day asked for on; days without any are absent.
	PerDay map[string]int
}

// Day is the UTC day of t as the per-day counts key it.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// Stats returns the counts by status and the contracts created on each of
// the last StatsDays days.
func (s *Service) Stats() (*ContractStats, error) {
	since := s.opt.Now().UTC().AddDate(0, 0, 1-StatsDays)
	var out *ContractStats
	err := s.store.View(func(tx Tx) (err error) { out, err = tx.ContractStats(Day(since)); return err })
	return out, err
}

// AdminContracts returns one page of every owner's contracts, newest
// first. Search matches the contract number, party numbers starting with
// the text and names as any tenant knows them.
func (s *Service) AdminContracts(q ContractQuery) ([]*ContractView, int, error) {
	q.Search = strings.TrimSpace(q.Search)
	if err := q.check(); err != nil {
		return nil, 0, err
	}
	q.OwnerIN, q.AllOwners, q.AllTemplates, q.TemplateIDs, q.Counterparties = "", true, true, nil, nil
	var views []*ContractView
	var total int
	err := s.store.View(func(tx Tx) (err error) {
		views, total, err = listViews(tx, q)
		return err
	})
	return views, total, err
}

// AdminContract returns any contract.
func (s *Service) AdminContract(id string) (*ContractView, error) {
	if uuid.Validate(id) != nil {
		return nil, Errorf(ENOTFOUND, "Contract not found.")
	}
	var v *ContractView
	err := s.store.View(func(tx Tx) error {
		c, err := tx.Contract(id)
		if err != nil {
			return notFound(err, "Contract not found.")
		}
		v, err = viewOf(tx, c)
		return err
	})
	return v, err
}

// AdminCancel withdraws a CREATED contract on its creator's behalf; the
// audit trail records the administrator's act (no party's number, the
// admin token as its confirmation) and the webhooks tell of it as of any
// cancellation.
func (s *Service) AdminCancel(id string, actor Actor) (*ContractView, error) {
	if uuid.Validate(id) != nil {
		return nil, Errorf(ENOTFOUND, "Contract not found.")
	}
	var out *ContractView
	err := s.store.Update(func(tx Tx) error {
		c, err := tx.Contract(id)
		if err != nil {
			return notFound(err, "Contract not found.")
		}
		events, err := c.Cancel(c.CreatorIN, s.opt.Now())
		if err != nil {
			return err
		}
		if err := tx.PutContract(c); err != nil {
			return err
		}
		actor.IN = ""
		if err := s.record(tx, c, events, actor, ConfirmAdmin, ""); err != nil {
			return err
		}
		out, err = viewOf(tx, c)
		return err
	})
	return out, err
}

// Owners returns every owner, by number.
func (s *Service) Owners() ([]*Client, error) {
	var out []*Client
	err := s.store.View(func(tx Tx) (err error) { out, err = tx.Owners(); return err })
	slices.SortFunc(out, func(a, b *Client) int { return strings.Compare(a.IN, b.IN) })
	return out, err
}

// Apps returns every app, newest first.
func (s *Service) Apps() ([]*App, error) {
	var out []*App
	err := s.store.View(func(tx Tx) (err error) { out, err = tx.Apps(); return err })
	slices.SortFunc(out, func(a, b *App) int { return newestFirst(a.CreatedAt, b.CreatedAt, a.ID, b.ID) })
	return out, err
}

// Keys returns every API key, newest first.
func (s *Service) Keys() ([]*APIKey, error) {
	var out []*APIKey
	err := s.store.View(func(tx Tx) (err error) { out, err = tx.Keys(); return err })
	slices.SortFunc(out, func(a, b *APIKey) int { return newestFirst(a.CreatedAt, b.CreatedAt, a.ID, b.ID) })
	return out, err
}

// AdminTemplates returns every template, whatever its status, newest first.
func (s *Service) AdminTemplates() ([]*Template, error) {
	var out []*Template
	err := s.store.View(func(tx Tx) (err error) { out, err = tx.Templates(); return err })
	slices.SortFunc(out, func(a, b *Template) int { return newestFirst(a.CreatedAt, b.CreatedAt, a.ID, b.ID) })
	return out, err
}

func newestFirst(a, b time.Time, aID, bID string) int {
	if c := b.Compare(a); c != 0 {
		return c
	}
	return strings.Compare(aID, bID)
}

// PublishTemplate lets new contracts use a template.
func (s *Service) PublishTemplate(id string) error { return s.setTemplateStatus(id, TemplatePublished) }

// UnpublishTemplate makes a template a draft: no new contract can use it,
// and the contracts made with it stay as they are.
func (s *Service) UnpublishTemplate(id string) error { return s.setTemplateStatus(id, TemplateDraft) }

func (s *Service) setTemplateStatus(id, status string) error {
	if uuid.Validate(id) != nil {
		return Errorf(ENOTFOUND, "Template not found.")
	}
	return s.store.Update(func(tx Tx) error {
		t, err := tx.Template(id)
		if err != nil {
			return notFound(err, "Template not found.")
		}
		if t.Status == status {
			return nil
		}
		t.Status, t.UpdatedAt = status, UTC(s.opt.Now())
		return tx.PutTemplate(t)
	})
}
