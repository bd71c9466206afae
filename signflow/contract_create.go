package signflow

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// ContractInput is a contract create request with money in minor units.
type ContractInput struct {
	TemplateID     string
	BuyerIN        string
	SellerIN       string
	Price          int64
	InitialPayment int64
	Currency       string
	DeliveryAt     *time.Time
	SignBy         *time.Time
	Values         []ValueInput
	Payments       []Payment
	WitnessIDs     []string
	Products       []Product
	// Notify, when NotifySMS, texts every other party an invitation to
	// the cabinet at CabinetURL, in Lang (default uz).
	Notify     string
	Lang       string
	CabinetURL string
}

// ValueInput fills one template field.
type ValueInput struct {
	TemplateFieldID string
	KeyName         string
	Value           string
	Position        int32
}

// Limits on the size of one contract.
const (
	MaxProducts = 1000
	MaxValues   = 500
	MaxPayments = 360
)

// CreateContract checks the input against the caller and the template and
// stores a CREATED contract with its CONTRACT_CREATED event.
func (s *Service) CreateContract(a *Access, in *ContractInput, actor Actor) (*Contract, error) {
	asked := *in
	// On a Trusting store, from what it keeps, confirmed by the write.
	if out, err := s.createTrusting(a, in, actor); !errors.Is(err, ErrUntrusted) {
		return out, err
	}
	*in = asked
	c, err := s.prepareContract(a, in, s.store.View)
	if err != nil && a.creds != nil {
		// Unconfirmed credentials (AuthenticateTokenFor) refuse nothing:
		// authenticate in full and check again, before any write.
		if a, err = s.Confirmed(a); err != nil {
			return nil, err
		}
		*in = asked
		c, err = s.prepareContract(a, in, s.store.View)
	}
	if err != nil {
		return nil, err
	}
	return s.writeContract(a, in, c, actor, s.store.Update)
}

// prepareContract checks the input and builds the contract, before the
// write, in a read-only transaction of view; it confirms a's cached
// credentials in its read (confirmCreds).
func (s *Service) prepareContract(a *Access, in *ContractInput, view func(func(Tx) error) error) (*Contract, error) {
	if err := a.Require(ScopeContractsWrite); err != nil {
		return nil, err
	}
	if in.TemplateID == "" {
		return nil, Errorf(EINVALID, "templateId: required")
	}
	if err := uuid.Validate(in.TemplateID); err != nil {
		return nil, Errorf(EINVALID, "templateId: must be a UUID")
	}
	if !a.TemplateAllowed(in.TemplateID) {
		return nil, Errorf(EFORBIDDEN, "The template is not allowed for this credential.")
	}
	if err := resolveParties(a, in); err != nil {
		return nil, err
	}
	if err := checkNotify(in.Notify); err != nil {
		return nil, err
	}
	if in.Lang == "" {
		in.Lang = "uz"
	}
	if !slices.Contains(Languages, in.Lang) {
		return nil, Errorf(EINVALID, "lang: must be uz, ru or en")
	}
	// A template version never changes once stored, so the contract is
	// built and checked before the write against the version read here:
	// the batched write transaction does only the numbering and the puts,
	// and a refused request never makes a batch roll back and run again.
	var c *Contract
	err := view(func(tx Tx) error {
		t, err := tx.Template(in.TemplateID)
		if ErrorCode(err) == ENOTFOUND {
			return Errorf(EINVALID, "templateId: no such template")
		} else if err != nil {
			return err
		}
		// After the template's read, whose round trip carries the
		// credentials version on a shared store.
		if err := confirmCreds(tx, a); err != nil {
			return err
		}
		if c, err = buildContract(t, in, s.opt.Now()); err != nil {
			return err
		}
		// The write keeps the witnesses' names as they are then (putChange).
		return resolveWitnesses(tx, a.OwnerIN, c, in.WitnessIDs)
	})
	return c, err
}

// writeContract numbers and stores c, built by prepareContract, in a
// write transaction of update.
func (s *Service) writeContract(a *Access, in *ContractInput, c *Contract, actor Actor, update func(func(Tx) error) error) (*Contract, error) {
	c.CreatorIN, c.AppID, c.KeyID = a.OwnerIN, a.AppID, a.KeyID
	terms := termsBeforeNumber(c)
	if p, ok := s.store.(contractPreparer); ok {
		p.PrepareContract(c)
		defer p.ReleaseContract(c)
	}
	var out *Contract
	var texts []queuedText
	err := update(func(tx Tx) (err error) {
		if c.Seq, err = tx.NextContractSeq(); err != nil {
			return err
		}
		c.Number = contractNumber(c.CreatedAt.Year(), c.Seq)
		c.Hash = terms.hash(c)
		if err := putChange(tx, c); err != nil {
			return err
		}
		if c.SignBy != nil {
			err := tx.PutTimer(&Timer{Kind: TimerDeadline, Subject: c.ID, ContractID: c.ID, At: *c.SignBy})
			if err != nil {
				return err
			}
		}
		actor.IN = a.OwnerIN
		out = c
		if err := s.record(tx, c, []string{EventCreated}, actor, "", ""); err != nil {
			return err
		}
		texts, err = s.invite(tx, c, in, actor, c.CreatedAt)
		return err
	})
	if err != nil {
		return nil, err
	}
	for _, t := range texts {
		s.opt.Queue.Enqueue(t.phone, t.text)
	}
	return out, nil
}

func resolveParties(a *Access, in *ContractInput) error {
	if in.BuyerIN == "" && in.SellerIN == "" {
		return Errorf(EINVALID, "buyerIn and sellerIn: at least one must be given")
	}
	if in.BuyerIN == "" {
		in.BuyerIN = a.OwnerIN
	}
	if in.SellerIN == "" {
		in.SellerIN = a.OwnerIN
	}
	for field, v := range map[string]string{"buyerIn": in.BuyerIN, "sellerIn": in.SellerIN} {
		if err := CheckIN(field, v); err != nil {
			return err
		}
	}
	if in.BuyerIN == in.SellerIN {
		return Errorf(EINVALID, "buyerIn and sellerIn: must be different parties")
	}
	if in.BuyerIN != a.OwnerIN && in.SellerIN != a.OwnerIN {
		return Errorf(EFORBIDDEN, "One party must be the owner: contracts on behalf of third parties cannot be created.")
	}
	return nil
}

func buildContract(t *Template, in *ContractInput, clock time.Time) (*Contract, error) {
	if t.Status != TemplatePublished {
		return nil, Errorf(EINVALID, "templateId: the template is not published")
	}
	now := UTC(clock)
	c := &Contract{ID: newOrderedID(), Status: StatusCreated, Purpose: t.Purpose, BuyerStatus: PartyPending, SellerStatus: PartyPending,
		BuyerIN: in.BuyerIN, SellerIN: in.SellerIN, Price: in.Price, InitialPayment: in.InitialPayment, Currency: in.Currency,
		DeliveryAt: utcPtr(in.DeliveryAt), TemplateID: t.ID, TemplateVersion: t.Version, WitnessIDs: in.WitnessIDs, CreatedAt: now, UpdatedAt: now, Version: 1,
		Values: []Value{}, Payments: []Payment{}, Products: []Product{}}
	if err := checkSignBy(in.SignBy, now); err != nil {
		return nil, err
	}
	c.SignBy = utcPtr(in.SignBy)
	if c.Currency == "" {
		c.Currency = "UZS"
	}
	if !slices.Contains(Currencies, c.Currency) {
		return nil, Errorf(EINVALID, "currency: must be one of UZS, USD, RUB")
	}
	if !t.CurrencyAllowed(c.Currency) {
		return nil, Errorf(EINVALID, "currency: %s is not enabled for this template", c.Currency)
	}
	if err := checkMoney(in.Price, "price"); err != nil {
		return nil, err
	}
	if err := checkMoney(in.InitialPayment, "initialPayment"); err != nil {
		return nil, err
	}
	if in.InitialPayment != 0 && !t.InitialPaymentEnabled {
		return nil, Errorf(EINVALID, "initialPayment: the template has no initial payment")
	}
	if in.InitialPayment > in.Price && in.Price > 0 {
		return nil, Errorf(EINVALID, "initialPayment: must not exceed price")
	}
	if err := checkWitnesses(t, in.WitnessIDs); err != nil {
		return nil, err
	}
	if err := addPayments(c, t, in.Payments); err != nil {
		return nil, err
	}
	if err := addProducts(c, t, in.Products); err != nil {
		return nil, err
	}
	if err := addValues(c, t, in.Values, now); err != nil {
		return nil, err
	}
	return c, nil
}

func checkWitnesses(t *Template, ids []string) error {
	if len(ids) > 0 && !t.WitnessEnabled {
		return Errorf(EINVALID, "witnessIds: the template has no witnesses")
	}
	if t.WitnessEnabled && t.WitnessCount > 0 && len(ids) != t.WitnessCount {
		return Errorf(EINVALID, "witnessIds: the template requires %d witnesses", t.WitnessCount)
	}
	return nil
}

func addValues(c *Contract, t *Template, values []ValueInput, now time.Time) error {
	if len(values) > MaxValues {
		return Errorf(EINVALID, "values: at most %d", MaxValues)
	}
	seen := map[string]bool{}
	for i, v := range values {
		var f *Field
		switch {
		case v.TemplateFieldID != "":
			f = t.Field(v.TemplateFieldID)
			if f != nil && v.KeyName != "" && v.KeyName != f.KeyName {
				return Errorf(EINVALID, "values[%d]: keyName %q does not match templateFieldId", i, v.KeyName)
			}
		case v.KeyName != "":
			f = t.FieldByKey(v.KeyName)
		default:
			return Errorf(EINVALID, "values[%d]: templateFieldId or keyName is required", i)
		}
		if f == nil || f.ProductField {
			return Errorf(EINVALID, "values[%d]: no such field in the template", i)
		}
		if seen[f.ID] {
			return Errorf(EINVALID, "values[%d]: field %q is given twice", i, f.KeyName)
		}
		seen[f.ID] = true
		if err := checkFieldValue(f, v.Value); err != nil {
			return Errorf(EINVALID, "values[%d] (%s): %s", i, f.KeyName, err.(*Error).Message)
		}
		if f.Required && strings.TrimSpace(v.Value) == "" {
			return Errorf(EINVALID, "values[%d] (%s): required by the template, must not be empty", i, f.KeyName)
		}
		c.Values = append(c.Values, Value{ID: NewID(), Position: v.Position, Value: v.Value, TemplateID: t.ID,
			TemplateFieldID: f.ID, KeyName: f.KeyName, CreatedAt: now, UpdatedAt: now})
	}
	for _, f := range t.Fields {
		if f.Required && !f.Deleted && !f.ProductField && !seen[f.ID] {
			return Errorf(EINVALID, "values: %s is required by the template", f.KeyName)
		}
	}
	return nil
}

// checkFieldValue checks a value against its field type (docs/templates.md).
func checkFieldValue(f *Field, v string) error {
	if len(v) > 10000 {
		return Errorf(EINVALID, "too long")
	}
	base, parts := f.Type, []string{v}
	if strings.HasPrefix(f.Type, "DOUBLE_INPUT_") {
		base = strings.TrimPrefix(f.Type, "DOUBLE_INPUT_")
		if parts = strings.Split(v, ";"); len(parts) != 2 {
			return Errorf(EINVALID, "must be two values joined by ';'")
		}
	}
	if f.Type == "MULTISELECT" && v != "" {
		parts = strings.Split(v, ";")
	}
	for _, p := range parts {
		var ok bool
		switch base {
		case "DATE":
			_, err := time.Parse(time.DateOnly, p)
			ok = err == nil
		case "INTEGER":
			_, err := strconv.ParseInt(p, 10, 64)
			ok = err == nil
		case "DOUBLE":
			_, err := strconv.ParseFloat(p, 64)
			ok = err == nil
		case "CHECKBOX":
			ok = p == "true" || p == "false"
		case "SELECT", "RADIO", "MULTISELECT":
			ok = len(f.Options) == 0 || slices.Contains(f.Options, p)
		default:
			ok = true
		}
		if !ok {
			return Errorf(EINVALID, "%q is not a valid %s", p, strings.ToLower(base))
		}
	}
	return nil
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil || t.IsZero() {
		return nil
	}
	u := UTC(*t)
	return &u
}

// newOrderedID is a time-ordered UUID (version 7, 62 random bits), the id
// of contracts and webhook deliveries: new ones (and their audit rows and
// outbox indexes) go to the end of their buckets instead of each dirtying a
// random page of a large bucket.
func newOrderedID() string { return uuid.Must(uuid.NewV7()).String() }
