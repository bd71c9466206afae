// Package pdf renders a signed contract as a PDF: the contract itself, its
// signatures and an audit-trail page with the document hash and a QR code
// that leads to the verification page.
package pdf

import "time"

// Document is everything printed; the caller fills it from the contract,
// already translated where it is data.
type Document struct {
	Lang                    string    // "uz", "ru" or "en": language of the labels; anything else is uz
	Title                   string    // template name in Lang
	Number                  string    // e.g. "2026-000042"
	Date                    time.Time // creation time
	Status                  string    // CREATED, ACTIVE, ...
	Seller, Buyer           Party
	SellerLabel, BuyerLabel string  // role names in Lang from the template, e.g. "Sotuvchi"/"Xaridor"
	Body                    string  // template body, placeholders already filled; may hold newlines and be long
	Values                  []Value // filled template fields
	Products                []Product
	Currency                string // UZS, USD, RUB
	Price, InitialPayment   int64  // minor units (cents)
	Payments                []Payment
	DeliveryAt              *time.Time
	Witnesses               []string
	Signatures              []Signature
	Audit                   []AuditRow
	Hash                    string // hex SHA-256 of the document
	VerifyURL               string // encoded into a QR code
}

// Party is one side of the contract as printed in the parties block.
type Party struct {
	Name     string // full name of a person or legal name of a company
	IN       string // PINFL of a person, TIN of a company
	Type     string // CLIENT (a person) or COMPANY
	Passport string // persons only
	Address  string
}

// Party types.
const (
	PartyClient  = "CLIENT"
	PartyCompany = "COMPANY"
)

// Value is one filled template field, printed as "Label: Value".
type Value struct {
	Label string
	Value string
}

// Product is one row of the products table; Price and Amount are minor units.
type Product struct {
	Name     string
	Unit     string
	Quantity float64
	Price    int64
	Amount   int64
}

// Payment is one row of the payment schedule; Amount is minor units.
type Payment struct {
	Date   time.Time
	Amount int64
}

// Signature is the signing state of one party.
type Signature struct {
	Role   string     // role label in Lang, e.g. "Sotuvchi"
	Name   string     // who signs
	Status string     // PENDING, ACCEPTED, REJECTED or CANCELLED
	Method string     // OTP_SMS, MY_ID, ...
	At     *time.Time // when the status was reached; nil while pending
}

// AuditRow is one line of the audit trail.
type AuditRow struct {
	At        time.Time
	Event     string
	Actor     string
	IP        string
	UserAgent string
	Method    string
}
