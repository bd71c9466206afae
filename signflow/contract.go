package signflow

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"
)

// Contract statuses. SIGNED_BY_* are legacy and never produced.
const (
	StatusCreated        = "CREATED"
	StatusSignedBySeller = "SIGNED_BY_SELLER"
	StatusSignedByBuyer  = "SIGNED_BY_BUYER"
	StatusActive         = "ACTIVE"
	StatusCompleted      = "COMPLETED"
	StatusRejected       = "REJECTED"
	StatusCancelled      = "CANCELLED"
)

// ContractStatuses lists every contract status value.
var ContractStatuses = []string{StatusCreated, StatusSignedBySeller, StatusSignedByBuyer, StatusActive, StatusCompleted, StatusRejected, StatusCancelled}

// Party statuses.
const (
	PartyPending   = "PENDING"
	PartyAccepted  = "ACCEPTED"
	PartyRejected  = "REJECTED"
	PartyCancelled = "CANCELLED"
)

// Product units.
var Units = []string{"DONA", "KG", "LITR"}

// Contract is an agreement between a buyer and a seller built from a template.
// Money is held in minor units.
type Contract struct {
	ID             string                `json:"id"`
	Seq            uint64                `json:"seq"`
	Number         string                `json:"number"`
	Status         string                `json:"status"`
	Purpose        string                `json:"purpose"`
	BuyerStatus    string                `json:"buyerStatus"`
	SellerStatus   string                `json:"sellerStatus"`
	BuyerIN        string                `json:"buyerIn"`
	SellerIN       string                `json:"sellerIn"`
	CreatorIN      string                `json:"creatorIn"`
	Price          int64                 `json:"price"`
	InitialPayment int64                 `json:"initialPayment"`
	Currency       string                `json:"currency"`
	DeliveryAt     *time.Time            `json:"deliveryAt,omitempty"`
	SignBy         *time.Time            `json:"signBy,omitempty"` // when the service cancels it if still CREATED
	TemplateID     string                `json:"templateId"`
	Values         []Value               `json:"values"`
	Payments       []Payment             `json:"payments"`
	WitnessIDs     []string              `json:"witnessIds"`
	Products       []Product             `json:"products"`
	AppID          string                `json:"appId,omitempty"`
	KeyID          string                `json:"keyId,omitempty"`
	Hash           string                `json:"hash"`
	Signatures     map[string]*Signature `json:"signatures,omitempty"`
	// Parties are the parties' details as of the contract's last change
	// (contract_record.go); nil on a contract last changed before they
	// were kept.
	Parties *PartyRecords `json:"parties,omitempty"`
	// TemplateVersion is the version of the template the contract was
	// made from; 0 on a contract made before versions, which is version 1.
	TemplateVersion int       `json:"templateVersion,omitempty"`
	Deleted         bool      `json:"deleted"`
	CreatedAt       time.Time `json:"createdAt"`
	UpdatedAt       time.Time `json:"updatedAt"`
	Version         int64     `json:"version"`
	// Witnesses are the signers WitnessIDs name, in their order (witness.go).
	Witnesses []Witness `json:"witnesses,omitempty"`
}

// Value is a filled template field.
type Value struct {
	ID              string    `json:"id"`
	Position        int32     `json:"position"`
	Value           string    `json:"value"`
	TemplateID      string    `json:"templateId"`
	TemplateFieldID string    `json:"templateFieldId"`
	KeyName         string    `json:"keyName"`
	CreatedAt       time.Time `json:"createdAt"`
	UpdatedAt       time.Time `json:"updatedAt"`
}

// Payment is one entry of the payment schedule.
type Payment struct {
	Amount      int64     `json:"amount"`
	PaymentDate time.Time `json:"paymentDate"`
}

// Product is one line of the goods list.
type Product struct {
	ID         string         `json:"id"`
	Name       string         `json:"name"`
	Unit       string         `json:"unit"`
	Price      int64          `json:"price"`
	Quantity   float64        `json:"quantity"`
	Amount     int64          `json:"amount"`
	DeliveryAt *time.Time     `json:"deliveryAt,omitempty"`
	Values     map[string]any `json:"values,omitempty"`
}

// Signature records how and when a party signed.
type Signature struct {
	Method    string    `json:"method"`
	At        time.Time `json:"at"`
	IP        string    `json:"ip"`
	UserAgent string    `json:"userAgent"`
	SessionID string    `json:"sessionId"`
	Hash      string    `json:"hash"`
	// PKCS7 is an E_IMZO signer's own signature (DER) as the E-IMZO server
	// accepted it, with its time-stamp when the server added one; the
	// sealed PDF carries it. Certificate describes the signer's certificate.
	PKCS7       []byte             `json:"pkcs7,omitempty"`
	Certificate *SignerCertificate `json:"certificate,omitempty"`
}

// HasParty reports whether in is the buyer or the seller.
func (c *Contract) HasParty(in string) bool {
	return in != "" && (c.BuyerIN == in || c.SellerIN == in)
}

// PartyStatus returns the status of the party or witness with the number.
func (c *Contract) PartyStatus(in string) string {
	if c.BuyerIN == in {
		return c.BuyerStatus
	}
	if w := c.Witness(in); w != nil {
		return w.Status
	}
	return c.SellerStatus
}

// Counterparty returns the other party's number.
func (c *Contract) Counterparty(in string) string {
	if c.BuyerIN == in {
		return c.SellerIN
	}
	return c.BuyerIN
}

func (c *Contract) setPartyStatus(in, status string) {
	if c.BuyerIN == in {
		c.BuyerStatus = status
	} else {
		c.SellerStatus = status
	}
}

// documentTerms is the canonical form of the contract's terms that
// DocumentHash hashes: the JSON of a fixed structure, which
// contract_terms_test.go keeps (plainTerms) and holds this writing to.
func documentTerms(c *Contract) []byte { return appendDocumentTerms(make([]byte, 0, 1024), c) }

func appendDocumentTerms(b []byte, c *Contract) []byte {
	b = AppendJSONString(append(b, `{"ID":`...), c.ID)
	b = AppendJSONString(append(b, `,"Number":`...), c.Number)
	b = AppendJSONString(append(b, `,"Template":`...), c.TemplateID)
	b = AppendJSONString(append(b, `,"Purpose":`...), c.Purpose)
	b = AppendJSONString(append(b, `,"Buyer":`...), c.BuyerIN)
	b = AppendJSONString(append(b, `,"Seller":`...), c.SellerIN)
	b = AppendJSONString(append(b, `,"Creator":`...), c.CreatorIN)
	b = AppendJSONString(append(b, `,"Currency":`...), c.Currency)
	b = appendTimeText(append(b, `,"Delivery":`...), c.DeliveryAt)
	b = strconv.AppendInt(append(b, `,"Price":`...), c.Price, 10)
	b = strconv.AppendInt(append(b, `,"Initial":`...), c.InitialPayment, 10)
	b = append(b, `,"Values":`...)
	if len(c.Values) == 0 {
		b = append(b, "null"...)
	}
	for i, v := range c.Values {
		b = append(b, "[,"[min(i, 1)])
		b = AppendJSONString(append(b, `{"F":`...), v.TemplateFieldID)
		b = AppendJSONString(append(b, `,"K":`...), v.KeyName)
		b = append(AppendJSONString(append(b, `,"V":`...), v.Value), '}')
	}
	if len(c.Values) > 0 {
		b = append(b, ']')
	}
	b = append(b, `,"Payments":`...)
	if len(c.Payments) == 0 {
		b = append(b, "null"...)
	}
	for i, p := range c.Payments {
		b = strconv.AppendInt(append(b, "[,"[min(i, 1)], '['), p.Amount, 10)
		b = append(UTC(p.PaymentDate).AppendFormat(append(b, ',', '"'), time.RFC3339), '"', ']')
	}
	if len(c.Payments) > 0 {
		b = append(b, ']')
	}
	b = append(b, `,"Witnesses":`...)
	if c.WitnessIDs == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, w := range c.WitnessIDs {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendJSONString(b, w)
		}
		b = append(b, ']')
	}
	b = append(b, `,"Products":`...)
	if len(c.Products) == 0 {
		b = append(b, "null"...)
	}
	for i, p := range c.Products {
		b = append(b, "[,"[min(i, 1)])
		b = AppendJSONString(append(b, `{"N":`...), p.Name)
		b = AppendJSONString(append(b, `,"U":`...), p.Unit)
		b = strconv.AppendInt(append(b, `,"P":`...), p.Price, 10)
		b = strconv.AppendInt(append(b, `,"A":`...), p.Amount, 10)
		if math.IsNaN(p.Quantity) || math.IsInf(p.Quantity, 0) {
			return nil // json.Marshal's failure, as the plain form had it
		}
		b = AppendJSONFloat(append(b, `,"Q":`...), p.Quantity)
		b = appendTimeText(append(b, `,"D":`...), p.DeliveryAt)
		// Map keys are sorted, so the form is canonical.
		var err error
		if b, err = AppendJSONValues(append(b, `,"V":`...), p.Values); err != nil {
			return nil
		}
		b = append(b, '}')
	}
	if len(c.Products) > 0 {
		b = append(b, ']')
	}
	// TemplateVersion is left out at 0 and 1, so that the hash of a
	// contract made before versions stays what it was.
	if c.TemplateVersion > 1 {
		b = strconv.AppendInt(append(b, `,"TemplateVersion":`...), int64(c.TemplateVersion), 10)
	}
	return append(b, '}')
}

// DocumentHash is SHA-256 over a canonical form of the contract's terms:
// fields in a fixed order, times in UTC seconds, money in minor units.
func DocumentHash(c *Contract) string {
	sum := sha256.Sum256(documentTerms(c))
	return hex.EncodeToString(sum[:])
}

// numberedTerms are a contract's terms, encoded before its number is
// known, cut where the number goes: a create encodes them before its
// batched write transaction, whose functions run one after another, and
// only hashes them with the number inside it. The tail lies at buf[tailAt:]
// with room before it, where hash writes the head and the number.
type numberedTerms struct {
	head, buf []byte
	tailAt    int
}

// numberRoom is the room before the tail: a head with a UUID and a number
// of up to 40 bytes fit.
const numberRoom = 96

// termsBeforeNumber encodes c's terms with an empty number. head is nil
// when the encoding does not start as expected.
func termsBeforeNumber(c *Contract) numberedTerms {
	number := c.Number
	c.Number = ""
	b := appendDocumentTerms(make([]byte, numberRoom, numberRoom+1024), c)
	c.Number = number
	head := AppendJSONString(append(make([]byte, 0, 24+len(c.ID)), `{"ID":`...), c.ID)
	head = append(head, `,"Number":"`...)
	terms := b[numberRoom:]
	if !bytes.HasPrefix(terms, head) || len(terms) <= len(head) || terms[len(head)] != '"' {
		return numberedTerms{}
	}
	return numberedTerms{head: head, buf: b, tailAt: numberRoom + len(head)}
}

// hash is DocumentHash(c) for c with the terms t was made of and its
// number: a number is digits and dashes, which JSON writes as they are.
func (t numberedTerms) hash(c *Contract) string {
	start := t.tailAt - len(t.head) - len(c.Number)
	if t.head == nil || start < 0 || strings.ContainsFunc(c.Number, func(r rune) bool { return r != '-' && (r < '0' || r > '9') }) {
		return DocumentHash(c)
	}
	copy(t.buf[start:], t.head)
	copy(t.buf[start+len(t.head):], c.Number)
	sum := sha256.Sum256(t.buf[start:])
	return hex.EncodeToString(sum[:])
}

// contractNumber is fmt.Sprintf("%d-%06d", year, seq) with one allocation:
// a create numbers its contract in the batched write.
func contractNumber(year int, seq uint64) string {
	var buf [48]byte
	b := append(strconv.AppendInt(buf[:0], int64(year), 10), '-')
	var digits [20]byte
	d := strconv.AppendUint(digits[:0], seq, 10)
	for i := len(d); i < 6; i++ {
		b = append(b, '0')
	}
	return string(append(b, d...))
}

// appendTimeText appends t in RFC 3339 (none: empty) as a JSON string; the
// text has nothing to escape.
func appendTimeText(b []byte, t *time.Time) []byte {
	b = append(b, '"')
	if t != nil {
		b = UTC(*t).AppendFormat(b, time.RFC3339)
	}
	return append(b, '"')
}
