package signflow

import (
	"strings"
	"time"
	"unicode"
)

// Client types. Only CLIENT and COMPANY are used by the interfaces.
const (
	ClientIndividual = "CLIENT"
	ClientCompany    = "COMPANY"
)

// Client is a party that can sign: an individual or a legal entity.
type Client struct {
	ID                 string    `json:"id"`
	IN                 string    `json:"in"`
	Type               string    `json:"type"`
	FirstName          string    `json:"firstName,omitempty"`
	LastName           string    `json:"lastName,omitempty"`
	MidName            string    `json:"midName,omitempty"`
	LegalName          string    `json:"legalName,omitempty"`
	Phone              string    `json:"phone,omitempty"`
	Passport           string    `json:"passport,omitempty"`
	PassportIssuedBy   string    `json:"passportIssuedBy,omitempty"`
	PassportIssueDate  string    `json:"passportIssueDate,omitempty"`
	PassportExpiryDate string    `json:"passportExpiryDate,omitempty"`
	Birthday           string    `json:"birthday,omitempty"`
	IsMan              *bool     `json:"isMan,omitempty"`
	Address            string    `json:"address,omitempty"`
	Email              string    `json:"email,omitempty"`
	Verified           bool      `json:"verified"`
	CreatedAt          time.Time `json:"createdAt"`
	UpdatedAt          time.Time `json:"updatedAt"`
}

// Name is the display name: the legal name of a company, else "Last First Mid".
func (c *Client) Name() string {
	if c == nil {
		return ""
	}
	if c.Type == ClientCompany && c.LegalName != "" {
		return c.LegalName
	}
	return strings.Join(strings.Fields(c.LastName+" "+c.FirstName+" "+c.MidName), " ")
}

// NameWords are the lower-case words a client is found by in searches:
// its names, split at every character that is neither a letter nor a digit.
func (c *Client) NameWords() []string {
	text := strings.ToLower(strings.Join([]string{c.FirstName, c.LastName, c.MidName, c.LegalName}, " "))
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Normalize trims fields, defaults the type and reduces the phone to digits.
func (c *Client) Normalize() {
	for _, p := range []*string{&c.IN, &c.Type, &c.FirstName, &c.LastName, &c.MidName, &c.LegalName,
		&c.Passport, &c.PassportIssuedBy, &c.PassportIssueDate, &c.PassportExpiryDate, &c.Birthday, &c.Address, &c.Email} {
		*p = strings.TrimSpace(*p)
	}
	if c.Type == "" {
		c.Type = ClientIndividual
	}
	c.Phone = NormalizePhone(c.Phone)
}

// NormalizePhone removes "+", spaces, dashes and brackets from a phone number.
func NormalizePhone(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '+', ' ', '-', '(', ')', '\t':
			return -1
		}
		return r
	}, s)
}

// Validate checks a normalized client as it would be stored.
func (c *Client) Validate() error {
	switch c.Type {
	case ClientIndividual:
		if !isDigits(c.IN, 14) {
			return Errorf(EINVALID, "in: must be 14 digits for an individual").Keyed(KeyPersonIN)
		}
		if c.FirstName == "" || c.LastName == "" {
			return Errorf(EINVALID, "firstName and lastName: required for an individual").Keyed(KeyPersonName)
		}
		if c.Phone == "" {
			return Errorf(EINVALID, "phone: required for an individual").Keyed(KeyPersonPhone)
		}
	case ClientCompany:
		if !isDigits(c.IN, 9) {
			return Errorf(EINVALID, "in: must be 9 digits for a company").Keyed(KeyCompanyIN)
		}
		if c.LegalName == "" {
			return Errorf(EINVALID, "legalName: required for a company").Keyed(KeyLegalName)
		}
	default:
		return Errorf(EINVALID, "type: must be CLIENT or COMPANY").Keyed(KeyClientType)
	}
	if c.Phone != "" && (!isDigits(c.Phone, len(c.Phone)) || len(c.Phone) < 7 || len(c.Phone) > 15) {
		return Errorf(EINVALID, "phone: must be a country code and 7 to 15 digits").Keyed(KeyPhone)
	}
	for name, v := range map[string]string{"passportIssueDate": c.PassportIssueDate, "passportExpiryDate": c.PassportExpiryDate, "birthday": c.Birthday} {
		if v == "" {
			continue
		}
		if _, err := time.Parse(time.DateOnly, v); err != nil {
			return Errorf(EINVALID, "%s: must be a date YYYY-MM-DD", name)
		}
	}
	// Names are indexed word by word: bounded so no index key can outgrow
	// what bbolt stores (32 KiB), which would fail the write with a 500.
	if len(c.Email) > 254 || len(c.Address) > 1000 || len(c.LegalName) > 500 || len(c.FirstName) > 200 ||
		len(c.LastName) > 200 || len(c.MidName) > 200 || len(c.Passport) > 100 || len(c.PassportIssuedBy) > 500 {
		return Errorf(EINVALID, "a field is too long").Keyed(KeyClientTooLong)
	}
	return nil
}

// validateClient checks a normalized client and that its phone, if any,
// has one of the allowed country codes (E.164 codes are prefix-free).
func (s *Service) validateClient(c *Client) error {
	if err := c.Validate(); err != nil {
		return err
	}
	if c.Phone == "" || len(s.opt.CountryCodes) == 0 {
		return nil
	}
	for _, code := range s.opt.CountryCodes {
		if strings.HasPrefix(c.Phone, code) {
			return nil
		}
	}
	return Errorf(EINVALID, "phone: the country code must be %s; texts to other countries are not sent here", strings.Join(s.opt.CountryCodes, " or "))
}

// FillEmpty copies into c the fields of from that c does not hold yet.
// It reports whether anything changed. Held data is never overwritten.
func (c *Client) FillEmpty(from *Client) bool {
	changed := false
	fill := func(dst *string, src string) {
		if *dst == "" && src != "" {
			*dst, changed = src, true
		}
	}
	fill(&c.FirstName, from.FirstName)
	fill(&c.LastName, from.LastName)
	fill(&c.MidName, from.MidName)
	fill(&c.LegalName, from.LegalName)
	fill(&c.Phone, from.Phone)
	fill(&c.Passport, from.Passport)
	fill(&c.PassportIssuedBy, from.PassportIssuedBy)
	fill(&c.PassportIssueDate, from.PassportIssueDate)
	fill(&c.PassportExpiryDate, from.PassportExpiryDate)
	fill(&c.Birthday, from.Birthday)
	fill(&c.Address, from.Address)
	fill(&c.Email, from.Email)
	if c.IsMan == nil && from.IsMan != nil {
		v := *from.IsMan
		c.IsMan, changed = &v, true
	}
	return changed
}

// SetGivenFields copies into c every field that from gives, replacing what
// c holds; fields from leaves empty stay. It names the fields it changed,
// by their JSON names, so that an administrator is told what an update did.
func (c *Client) SetGivenFields(from *Client) []string {
	var changed []string
	set := func(name string, dst *string, src string) {
		if src != "" && *dst != src {
			*dst = src
			changed = append(changed, name)
		}
	}
	set("type", &c.Type, from.Type)
	set("firstName", &c.FirstName, from.FirstName)
	set("lastName", &c.LastName, from.LastName)
	set("midName", &c.MidName, from.MidName)
	set("legalName", &c.LegalName, from.LegalName)
	set("phone", &c.Phone, from.Phone)
	set("passport", &c.Passport, from.Passport)
	set("passportIssuedBy", &c.PassportIssuedBy, from.PassportIssuedBy)
	set("passportIssueDate", &c.PassportIssueDate, from.PassportIssueDate)
	set("passportExpiryDate", &c.PassportExpiryDate, from.PassportExpiryDate)
	set("birthday", &c.Birthday, from.Birthday)
	set("address", &c.Address, from.Address)
	set("email", &c.Email, from.Email)
	if from.IsMan != nil && (c.IsMan == nil || *c.IsMan != *from.IsMan) {
		v := *from.IsMan
		c.IsMan = &v
		changed = append(changed, "isMan")
	}
	return changed
}

// ClientTypeOf is the kind of party a number belongs to: a 9-digit
// taxpayer number is a company, any other an individual.
func ClientTypeOf(in string) string {
	if len(in) == 9 {
		return ClientCompany
	}
	return ClientIndividual
}

// ValidIN reports whether s is a 14-digit personal or 9-digit taxpayer number.
func ValidIN(s string) bool { return isDigits(s, 14) || isDigits(s, 9) }

// CheckIN refuses, naming field, a number that ValidIN does not accept.
func CheckIN(field, in string) error {
	if !ValidIN(in) {
		return Errorf(EINVALID, "%s: must be 14 digits (individual) or 9 digits (company)", field)
	}
	return nil
}

func isDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
