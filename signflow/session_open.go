package signflow

import (
	"net/url"
	"slices"
	"strings"

	"github.com/google/uuid"
)

// SessionRequest opens a signing session for one party.
type SessionRequest struct {
	SignerIN     string
	Lang         string
	ParentOrigin string
	RedirectURL  string
	// Notify, when NotifySMS, texts the session's link, LinkBase and the
	// token, to the phone the creator's tenant holds for the signer.
	Notify   string
	LinkBase string
}

func (r *SessionRequest) validate() error {
	if r.SignerIN == "" {
		return Errorf(EINVALID, "signerIn: required")
	}
	if err := checkNotify(r.Notify); err != nil {
		return err
	}
	if r.Lang == "" {
		r.Lang = "uz"
	}
	if !slices.Contains(Languages, r.Lang) {
		return Errorf(EINVALID, "lang: must be uz, ru or en")
	}
	if r.ParentOrigin != "" {
		origin, ok := ParseOrigin(strings.TrimSuffix(r.ParentOrigin, "/"))
		if !ok {
			return Errorf(EINVALID, "parentOrigin: must be an origin such as https://shop.example (http:// only for localhost)")
		}
		r.ParentOrigin = origin
	}
	if r.RedirectURL != "" {
		u, err := url.Parse(r.RedirectURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Errorf(EINVALID, "redirectUrl: must be an absolute http or https URL")
		}
	}
	return nil
}

// OpenSession opens a PENDING session for a party or a witness of a CREATED contract and
// returns it with the token for its URL; only the token's hash is stored.
func (s *Service) OpenSession(a *Access, contractID string, r SessionRequest, actor Actor) (*SignSession, string, error) {
	if err := a.Require(ScopeContractsSign); err != nil {
		return nil, "", err
	}
	if err := r.validate(); err != nil {
		return nil, "", err
	}
	if uuid.Validate(contractID) != nil {
		return nil, "", Errorf(ENOTFOUND, "Contract not found.")
	}
	token := RandomToken(32)
	var out *SignSession
	var phone, number string
	err := s.store.Update(func(tx Tx) error {
		phone = ""
		c, err := tx.Contract(contractID)
		if err != nil {
			return notFound(err, "Contract not found.")
		}
		if err := canReach(tx, a, c); err != nil {
			return err
		}
		if c.Status != StatusCreated {
			return Errorf(EINVALID, "The contract is %s; a session can only be opened for a CREATED contract.", c.Status)
		}
		if !c.HasSigner(r.SignerIN) {
			return Errorf(EINVALID, "signerIn: not a party of this contract, nor its witness")
		}
		// A tenant signs for the parties and witnesses of its own
		// contracts, and for its own owner's party of the contracts it
		// reads; never for another tenant's signer of another tenant's
		// contract.
		if c.CreatorIN != a.OwnerIN && r.SignerIN != a.OwnerIN {
			return Errorf(EFORBIDDEN, "signerIn: a session for another tenant's party of a contract that tenant created cannot be opened here.")
		}
		if c.PartyStatus(r.SignerIN) != PartyPending {
			return Errorf(EINVALID, "signerIn: this party has already signed")
		}
		method, err := s.methodFor(tx, c, r.SignerIN)
		if err != nil {
			return err
		}
		now := UTC(s.opt.Now())
		if err := s.capSessions(tx, c.ID, r.SignerIN, now); err != nil {
			return err
		}
		if _, _, err := s.partyGate(tx, c.CreatorIN, r.SignerIN, now); err != nil {
			return err
		}
		out = &SignSession{ID: NewID(), TokenHash: HashSecret(token), ContractID: c.ID, SignerIN: r.SignerIN, AppID: a.AppID,
			Lang: r.Lang, ParentOrigin: r.ParentOrigin, RedirectURL: r.RedirectURL, Method: method, Status: SessionPending,
			CreatedAt: now, ExpiresAt: s.sessionEnd(c, now)}
		if r.Notify == NotifySMS {
			if phone, err = signerPhone(tx, c, r.SignerIN); err != nil {
				return err
			} else if phone == "" {
				return Errorf(EINVALID, "notify: the contract's creator holds no phone for this signer to text the link to")
			}
			out.NotifiedAt, number = &now, c.Number
		}
		if err := tx.PutSession(out); err != nil {
			return err
		}
		actor.IN = a.OwnerIN
		// Opening confirms nothing: the method it will ask for is in the detail.
		err = tx.AddAudit(&AuditEvent{ID: NewID(), ContractID: c.ID, Type: AuditSessionOpened, ActorIN: actor.IN, At: now,
			IP: actor.IP, UserAgent: actor.UserAgent, Hash: c.Hash, SessionID: out.ID, Detail: "signer " + r.SignerIN + ", to confirm with " + method})
		if err != nil || phone == "" {
			return err
		}
		return s.noticeSent(tx, c, Timer{SignerIN: r.SignerIN, Lang: r.Lang, SessionID: out.ID, Link: r.LinkBase}, actor, "signing link", now)
	})
	if err != nil {
		return nil, "", err
	}
	if phone != "" {
		s.opt.Queue.Enqueue(phone, s.opt.Texts.Render(SMSSignLink, r.Lang, map[string]string{"number": number, "url": r.LinkBase + token}))
	}
	return out, token, nil
}

// methodFor picks the confirmation method of the signer and checks that it
// can work here: a configured provider, and for SMS codes a phone that the
// contract's creator's tenant holds for the signer.
func (s *Service) methodFor(tx Tx, c *Contract, signerIN string) (string, error) {
	t, err := templateOf(tx, c)
	if err != nil {
		return "", err
	}
	method := SignerMethod(t, signerIN)
	if !s.opt.Methods[method] {
		return "", Errorf(EINVALID, "The signing method %s required for this signer is not configured on this service.", method)
	}
	if method == MethodOTP {
		if _, err := codePhone(tx, c, signerIN); err != nil {
			return "", err
		}
	}
	return method, nil
}

// SessionForApp returns a session opened by the calling app; sessions of
// other apps are not found.
func (s *Service) SessionForApp(a *Access, id string) (*SignSession, error) {
	if err := a.Require(ScopeContractsSign); err != nil {
		return nil, err
	}
	var out *SignSession
	err := s.store.View(func(tx Tx) (err error) { out, err = tx.Session(id); return err })
	if err != nil || out.AppID != a.AppID || a.AppID == "" {
		if err == nil || ErrorCode(err) == ENOTFOUND {
			return nil, Errorf(ENOTFOUND, "Session not found.")
		}
		return nil, err
	}
	return out, nil
}
