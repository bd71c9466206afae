package pdf

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"time"

	"contracts/server/pdf/pades"
	"contracts/signflow"
)

// stampWait is the Retry-After of a download refused while the time-stamp
// authority fails.
const stampWait = 30 * time.Second

// StampError refuses a download while the time-stamp authority fails: 503
// with Retry-After. The contract is never served without its time-stamp.
type StampError struct{ cause error }

func (e *StampError) Error() string { return "sealing the contract PDF: " + e.cause.Error() }

// Unwrap presents the refusal as EUNAVAILABLE, and keeps the cause (an
// error wrapping pades.ErrTimestamp) for the log.
func (e *StampError) Unwrap() []error {
	return []error{signflow.Errorf(signflow.EUNAVAILABLE,
		"The time-stamp authority that dates the seal of this PDF is not answering; retry in a minute."), e.cause}
}

// RetryAfter is when to try again.
func (e *StampError) RetryAfter() time.Duration { return stampWait }

// seal seals a rendered contract: signing time the contract's last change,
// the Info dictionary naming it, and its attachments.
func seal(ctx context.Context, s *pades.Sealer, pdf []byte, v *signflow.ContractView, audit []*signflow.AuditEvent) ([]byte, error) {
	files, err := attachments(v, audit)
	if err != nil {
		return nil, err
	}
	out, err := s.Seal(ctx, pades.Document{PDF: pdf, SigningTime: v.UpdatedAt, Attachments: files,
		Contract: pades.Contract{ID: v.ID, Number: v.Number, Version: v.Version}})
	if errors.Is(err, pades.ErrTimestamp) {
		return nil, &StampError{cause: err}
	}
	return out, err
}

// AuditFileName is the attachment holding the audit trail.
const AuditFileName = "audit.json"

// attachments are audit.json and, for each party that signed with E-IMZO,
// its own PKCS #7 as <in>.p7s, seller first.
func attachments(v *signflow.ContractView, audit []*signflow.AuditEvent) ([]pades.Attachment, error) {
	data, err := AuditFile(v, audit)
	if err != nil {
		return nil, err
	}
	out := []pades.Attachment{{Name: AuditFileName, MIME: "application/json", Data: data,
		Description: "Audit trail of contract " + v.Number + ", version " + strconv.FormatInt(v.Version, 10)}}
	for _, in := range []string{v.SellerIN, v.BuyerIN} {
		if sig := v.Signatures[in]; sig != nil && len(sig.PKCS7) > 0 {
			out = append(out, pades.Attachment{Name: p7sName(in), MIME: "application/pkcs7-signature", Data: sig.PKCS7,
				Description: "E-IMZO signature of " + in})
		}
	}
	return out, nil
}

func p7sName(in string) string { return in + ".p7s" }

// auditFile is audit.json: the contract at its version, its audit trail
// up to that version and the parties' signatures. docs/sealed-documents.md
// describes it; fields are only ever added.
type auditFile struct {
	Contract   auditContract    `json:"contract"`
	Events     []auditEvent     `json:"events"`
	Signatures []auditSignature `json:"signatures"`
}

type auditContract struct {
	ID        string    `json:"id"`
	Number    string    `json:"number"`
	Version   int64     `json:"version"`
	Status    string    `json:"status"`
	Hash      string    `json:"hash"`
	BuyerIN   string    `json:"buyerIn"`
	SellerIN  string    `json:"sellerIn"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

type auditEvent struct {
	Type      string    `json:"type"`
	At        time.Time `json:"at"`
	ActorIN   string    `json:"actorIn,omitempty"`
	Method    string    `json:"method,omitempty"`
	IP        string    `json:"ip,omitempty"`
	UserAgent string    `json:"userAgent,omitempty"`
	SessionID string    `json:"sessionId,omitempty"`
	Detail    string    `json:"detail,omitempty"`
	Hash      string    `json:"hash,omitempty"`
	Version   int64     `json:"version,omitempty"`
}

type auditSignature struct {
	IN          string                      `json:"in"`
	Party       string                      `json:"party"` // SELLER or BUYER
	Method      string                      `json:"method"`
	At          time.Time                   `json:"at"`
	IP          string                      `json:"ip,omitempty"`
	UserAgent   string                      `json:"userAgent,omitempty"`
	Hash        string                      `json:"hash"`
	Certificate *signflow.SignerCertificate `json:"certificate,omitempty"`
	PKCS7       string                      `json:"pkcs7,omitempty"` // the attachment holding the signer's PKCS #7
}

// AuditFile is the audit.json of a contract view and its audit trail, as
// the sealed PDF carries it: the same bytes for the same inputs.
func AuditFile(v *signflow.ContractView, audit []*signflow.AuditEvent) ([]byte, error) {
	f := auditFile{Contract: auditContract{ID: v.ID, Number: v.Number, Version: v.Version, Status: v.Status, Hash: v.Hash,
		BuyerIN: v.BuyerIN, SellerIN: v.SellerIN, CreatedAt: v.CreatedAt.UTC(), UpdatedAt: v.UpdatedAt.UTC()},
		Events: []auditEvent{}, Signatures: []auditSignature{}}
	for _, e := range audit {
		f.Events = append(f.Events, auditEvent{Type: e.Type, At: e.At.UTC(), ActorIN: e.ActorIN, Method: e.Method, IP: e.IP,
			UserAgent: e.UserAgent, SessionID: e.SessionID, Detail: e.Detail, Hash: e.Hash, Version: e.Version})
	}
	for _, p := range []struct{ in, party string }{{v.SellerIN, "SELLER"}, {v.BuyerIN, "BUYER"}} {
		sig := v.Signatures[p.in]
		if sig == nil {
			continue
		}
		s := auditSignature{IN: p.in, Party: p.party, Method: sig.Method, At: sig.At.UTC(), IP: sig.IP, UserAgent: sig.UserAgent,
			Hash: sig.Hash, Certificate: sig.Certificate}
		if len(sig.PKCS7) > 0 {
			s.PKCS7 = p7sName(p.in)
		}
		f.Signatures = append(f.Signatures, s)
	}
	return json.MarshalIndent(f, "", "  ")
}
