package signflow

import (
	"context"
	"crypto/subtle"
	"encoding/base64"
	"strings"
	"time"

	"github.com/google/uuid"
)

// IdentityProvider confirms a person through an outside identity service
// (MY_ID, ABLE_ID): an OAuth2 authorization-code flow in a popup.
// signflow/idp.Provider implements it.
type IdentityProvider interface {
	// AuthURL is the provider page the popup opens; state comes back with
	// the code on the redirect URI.
	AuthURL(state string) string
	// Identify exchanges the code server-side and returns the confirmed
	// person's 14-digit number. Its errors are *Error: EINVALID for a
	// refused code or an unusable answer, EUNAVAILABLE when the provider
	// fails or does not answer in time.
	Identify(ctx context.Context, state, code string) (in string, err error)
}

// IdentitySessionProvider is a provider whose page is made for one person
// (MyID's web face check): a session is opened at the provider, bound to
// the signer's number, before the popup goes to its page.
type IdentitySessionProvider interface {
	IdentityProvider
	// StartURL opens the provider's session and returns its page; state
	// comes back on the redirect URI as with AuthURL. Errors are *Error:
	// EUNAVAILABLE when the provider fails or does not answer in time.
	StartURL(ctx context.Context, state string, start IdentityStart) (string, error)
}

// IdentityStart is what a provider's session is opened for.
type IdentityStart struct {
	SessionID string // our session, the provider's external id
	SignerIN  string // the 14-digit number the provider is to check
	IP        string // the signer's address
	Lang      string // the page's language
}

// EIMZOVerifier checks an E-IMZO PKCS#7 signature of a document hash made
// by the key of signerIN. signflow/eimzo.Verifier implements it.
type EIMZOVerifier interface {
	// Verify returns the signer's certificate when the signature is valid,
	// its content is documentHash and its certificate belongs to signerIN;
	// EINVALID otherwise, EUNAVAILABLE when the E-IMZO server fails.
	Verify(ctx context.Context, pkcs7Base64, documentHash, signerIN string) (*SignerCertificate, error)
}

// SignerCertificate is the certificate behind an accepted E-IMZO
// signature, as the E-IMZO server describes it.
type SignerCertificate struct {
	SerialNumber string `json:"serialNumber"`
	CommonName   string `json:"commonName"`
	Organization string `json:"organization,omitempty"`
	TIN          string `json:"tin,omitempty"`   // legal entity taxpayer number, OID 1.2.860.3.16.1.1
	PINFL        string `json:"pinfl,omitempty"` // personal number, OID 1.2.860.3.16.1.2
	Issuer       string `json:"issuer"`
	ValidFrom    string `json:"validFrom"` // as the server writes them, local time
	ValidTo      string `json:"validTo"`
	SigningTime  string `json:"signingTime"`         // the signer's clock
	Timestamp    string `json:"timestamp,omitempty"` // the trusted timestamp, when present
	// PKCS7 is the signature the server accepted, in base64: with its
	// trusted timestamp when the server added one. The signature keeps it.
	PKCS7 string `json:"-"`
}

// Refusals of the identity and E-IMZO steps.
var (
	ErrIdentityState    = &Error{Code: EFORBIDDEN, Message: "This identity check is invalid or was already used; start it again from the signing page."}
	ErrNotIdentity      = &Error{Code: EINVALID, Message: "This session is not confirmed through an identity provider."}
	ErrNotEIMZO         = &Error{Code: EINVALID, Message: "This session is not signed with E-IMZO."}
	ErrIdentityMismatch = &Error{Code: EINVALID, Message: "The identity provider confirmed a different person than the signer of this contract; nothing was signed."}
	ErrContractChanged  = &Error{Code: EINVALID, Message: "The contract changed while it was being signed; sign again."}
)

type actorKey struct{}

// WithActor returns ctx carrying the actor, so that an outside service can
// be told whom a call is for (E-IMZO wants the signer's IP address).
func WithActor(ctx context.Context, a Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, a)
}

// ActorFrom returns the actor carried by ctx, or a zero Actor.
func ActorFrom(ctx context.Context) Actor {
	a, _ := ctx.Value(actorKey{}).(Actor)
	return a
}

// NewIdentityState returns a state for the identity flow of a session and
// the hash to store on the session. The state is the session id and 256
// random bits; only its hash is kept, and it works once.
func NewIdentityState(sessionID string) (state string, hash []byte) {
	state = sessionID + "." + RandomToken(32)
	return state, HashSecret(state)
}

// StartIdentity begins the MY_ID or ABLE_ID check of a session: it stores
// the hash of a new state on the session (replacing any earlier one) and
// returns the provider page for the popup.
func (s *Service) StartIdentity(token string, actor Actor) (string, error) {
	return s.startIdentity(token, "", actor)
}

// startIdentity begins an identity check of a session for intent: a
// signature ("") or a rejection (IntentReject).
func (s *Service) startIdentity(token, intent string, actor Actor) (string, error) {
	now := s.opt.Now()
	var (
		state    string
		provider IdentityProvider
		start    IdentityStart
	)
	err := s.store.Update(func(tx Tx) error {
		sess, _, err := liveSession(tx, token, now)
		if err != nil {
			return err
		}
		if provider, err = s.identityProvider(sess.Method); err != nil {
			return err
		}
		state, sess.IDPStateHash = NewIdentityState(sess.ID)
		sess.IDPIntent = intent
		start = IdentityStart{SessionID: sess.ID, SignerIN: sess.SignerIN, IP: actor.IP, Lang: sess.Lang}
		return tx.PutSession(sess)
	})
	if err != nil {
		return "", err
	}
	if p, ok := provider.(IdentitySessionProvider); ok {
		// The provider's own time-outs bound the call.
		return p.StartURL(context.Background(), state, start)
	}
	return provider.AuthURL(state), nil
}

// FinishIdentity completes the check when the provider redirects back with
// state and code. The state is used up first, whatever follows; the code is
// exchanged outside any transaction; the contract is signed only when the
// confirmed number is the signer's. On a mismatch or a provider failure
// the session stays PENDING and a new check can be started.
func (s *Service) FinishIdentity(ctx context.Context, state, code string, actor Actor) (*SessionResult, error) {
	id, _, ok := strings.Cut(state, ".")
	if !ok || uuid.Validate(id) != nil || len(state) > 256 {
		return nil, ErrIdentityState
	}
	var (
		sess    *SignSession
		refusal error
		intent  string
	)
	err := s.store.Update(func(tx Tx) error {
		sess, refusal = nil, nil
		found, err := tx.Session(id)
		if ErrorCode(err) == ENOTFOUND {
			return ErrIdentityState
		} else if err != nil {
			return err
		}
		if len(found.IDPStateHash) == 0 || subtle.ConstantTimeCompare(found.IDPStateHash, HashSecret(state)) != 1 {
			return ErrIdentityState
		}
		found.IDPStateHash = nil
		intent = found.IDPIntent
		found.IDPIntent = ""
		if err := tx.PutSession(found); err != nil {
			return err
		}
		// The used state is committed even when the session can no longer sign.
		_, refusal = sessionCanSign(tx, found, s.opt.Now())
		sess = found
		return nil
	})
	if err != nil {
		return nil, err
	}
	if refusal != nil {
		return nil, refusal
	}
	provider, err := s.identityProvider(sess.Method)
	if err != nil {
		return nil, err
	}
	in, err := provider.Identify(ctx, state, code)
	if err != nil {
		return nil, err
	}
	if in != sess.SignerIN {
		return nil, ErrIdentityMismatch
	}
	if intent == IntentReject {
		return s.rejectConfirmed(sess.ID, sess.Method, "", actor, "")
	}
	return s.signConfirmed(sess.ID, sess.Method, "", actor, nil)
}

// SignWithEIMZO accepts the E-IMZO signature of an E_IMZO session: the
// PKCS#7 is verified through the E-IMZO server outside any transaction,
// then the contract is signed and the signer's client becomes verified.
func (s *Service) SignWithEIMZO(ctx context.Context, token, pkcs7 string, actor Actor) (*SessionResult, error) {
	sess, hash, cert, err := s.verifyEIMZO(ctx, token, pkcs7, func(hash string) string { return hash }, actor)
	if err != nil {
		return nil, err
	}
	accepted := cert.PKCS7
	if accepted == "" {
		accepted = pkcs7
	}
	der, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(accepted), ""))
	if err != nil {
		return nil, Errorf(EINVALID, "The signature is not an E-IMZO PKCS#7 document in base64; nothing was signed.")
	}
	kept := *cert
	kept.PKCS7 = ""
	return s.signConfirmed(sess.ID, MethodEIMZO, hash, actor, &Signature{PKCS7: der, Certificate: &kept})
}

// verifyEIMZO reads the live E_IMZO session of token and has the E-IMZO
// server verify pkcs7 as the signer's signature of content(the contract's
// hash), outside any transaction: a signature and a rejection sign
// different contents of the same hash.
func (s *Service) verifyEIMZO(ctx context.Context, token, pkcs7 string, content func(hash string) string, actor Actor) (*SignSession, string, *SignerCertificate, error) {
	var sess *SignSession
	var hash string
	err := s.store.View(func(tx Tx) error {
		found, c, err := liveSession(tx, token, s.opt.Now())
		if err != nil {
			return err
		}
		if found.Method != MethodEIMZO {
			return ErrNotEIMZO
		}
		sess, hash = found, c.Hash
		return nil
	})
	if err != nil {
		return nil, "", nil, err
	}
	if s.opt.EIMZO == nil || !s.opt.Methods[MethodEIMZO] {
		return nil, "", nil, Errorf(EINVALID, "The signing method %s is not configured on this service.", MethodEIMZO)
	}
	cert, err := s.opt.EIMZO.Verify(WithActor(ctx, actor), pkcs7, content(hash), sess.SignerIN)
	if err != nil {
		return nil, "", nil, err
	}
	return sess, hash, cert, nil
}

// MethodUsable reports whether a session of the method can be confirmed
// on this service: OTP_SMS always; MY_ID and ABLE_ID when their provider is
// configured; E_IMZO when its verifier is. The signing page offers only
// usable methods.
func (s *Service) MethodUsable(method string) bool {
	switch method {
	case MethodOTP:
		return true
	case MethodMyID, MethodAbleID:
		return s.opt.Methods[method] && s.opt.Identity[method] != nil
	case MethodEIMZO:
		return s.opt.Methods[method] && s.opt.EIMZO != nil
	}
	return false
}

// SessionOutcome returns the session of a signing page's token and its
// contract in whatever state they are, for a page waiting on a check that
// finishes elsewhere (the identity popup). An unknown token is
// ErrSessionNotFound.
func (s *Service) SessionOutcome(token string) (*SessionResult, error) {
	var out *SessionResult
	err := s.store.View(func(tx Tx) error {
		sess, err := sessionByToken(tx, token)
		if err != nil {
			return err
		}
		c, err := tx.Contract(sess.ContractID)
		if err != nil {
			return err
		}
		out = &SessionResult{Session: sess, Contract: c}
		return nil
	})
	return out, err
}

// identityProvider returns the configured provider of an identity method.
func (s *Service) identityProvider(method string) (IdentityProvider, error) {
	if method != MethodMyID && method != MethodAbleID {
		return nil, ErrNotIdentity
	}
	p := s.opt.Identity[method]
	if p == nil || !s.opt.Methods[method] {
		return nil, Errorf(EINVALID, "The signing method %s is not configured on this service.", method)
	}
	return p, nil
}

// signConfirmed signs through completeSignature (signing.go) once an
// outside service has confirmed the signer, and marks the signer's client
// verified. hash, when set, must still be the contract's; evidence, when
// set, is the signer's own signature to keep on the contract's.
func (s *Service) signConfirmed(sessionID, method, hash string, actor Actor, evidence *Signature) (*SessionResult, error) {
	return s.actConfirmed(sessionID, method, hash, func(tx Tx, sess *SignSession, c *Contract, now time.Time) error {
		if err := s.completeSignature(tx, sess, c, actor, now, evidence); err != nil {
			return err
		}
		return markVerified(tx, c, sess.SignerIN, now)
	})
}

// actConfirmed does act (a signature or a rejection) in one transaction
// once an outside service has confirmed the session's signer: the session
// must still be open, of method, and, when hash is set, the contract's
// hash must still be hash.
func (s *Service) actConfirmed(sessionID, method, hash string, act func(Tx, *SignSession, *Contract, time.Time) error) (*SessionResult, error) {
	now := s.opt.Now()
	var out *SessionResult
	err := s.store.Update(func(tx Tx) error {
		out = nil
		sess, err := tx.Session(sessionID)
		if err != nil {
			return err
		}
		c, err := sessionCanSign(tx, sess, now)
		if err != nil {
			return err
		}
		if sess.Method != method {
			return ErrSessionClosed
		}
		if hash != "" && c.Hash != hash {
			return ErrContractChanged
		}
		sess.IDPStateHash, sess.IDPIntent = nil, ""
		if err := act(tx, sess, c, now); err != nil {
			return err
		}
		out = &SessionResult{Session: sess, Contract: c}
		return nil
	})
	return out, err
}

// markVerified records that an outside service confirmed the party with
// the number, on the record the contract's creator's tenant holds (the
// owner's record for an owner); a party it holds no record of has none to mark.
func markVerified(tx Tx, c *Contract, in string, now time.Time) error {
	client, owner, err := holder(tx, c.CreatorIN, in)
	if err != nil || client == nil || client.Verified {
		return err
	}
	marked := *client
	marked.Verified, marked.UpdatedAt = true, UTC(now)
	if owner {
		return tx.PutOwner(&marked)
	}
	return tx.PutClaim(c.CreatorIN, &marked)
}
