package signflow

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"fmt"
	"hash"
	"io"
	"sync"
	"time"
)

// SMSSender delivers a text message to a phone number.
type SMSSender interface {
	Send(ctx context.Context, phone, text string) error
}

// SecretBox encrypts secrets that must be read back, such as webhook secrets.
type SecretBox interface {
	Encrypt(plain []byte) ([]byte, error)
	Decrypt(enc []byte) ([]byte, error)
}

// Options configure a Service.
type Options struct {
	Now    TimeSource
	Secret []byte // keys the HMACs of tokens and SMS codes
	Box    SecretBox
	SMS    SMSSender
	// Texts are the SMS texts by kind and language; nil means DefaultSMSTexts.
	Texts SMSTexts
	// SessionTTL and OTPTTL are the lifetimes of a signing session and of
	// an SMS code; both required.
	SessionTTL time.Duration
	OTPTTL     time.Duration
	// Methods lists the signing methods that are configured; OTP_SMS always is.
	Methods map[string]bool
	// Identity holds the providers of MY_ID and ABLE_ID, by method.
	Identity map[string]IdentityProvider
	// EIMZO verifies E_IMZO signatures.
	EIMZO EIMZOVerifier
	// SessionsPerPartyPerHour caps the signing sessions opened for one
	// party of one contract in any hour; 0 means no cap.
	SessionsPerPartyPerHour int
	// Queue sends the texts the service sends of itself (signing links,
	// invitations, reminders) in the background; nil sends them at once.
	Queue TextQueue
	// Reminders is how many times a notified signer is reminded, every
	// RemindEvery; a RemindEvery of 0 sends none.
	Reminders   int
	RemindEvery time.Duration
	// CodesPerPartyPerDay and WrongCodesPerPartyPerDay cap, per creator's
	// tenant and signer number across all contracts and sessions, the SMS
	// codes sent and the wrong codes entered in a day (party_limit.go);
	// 0 means no cap.
	CodesPerPartyPerDay      int
	WrongCodesPerPartyPerDay int
	// CountryCodes are the calling codes a client's or owner's phone may
	// have (sms.allowedCountryCodes), so no text goes to premium or
	// foreign numbers by surprise; empty allows any.
	CountryCodes []string
	// PayLinks are the providers' pay pages that pay links lead to; empty
	// ones are the providers' own.
	PayLinks PayLinkHosts
	// PaymentRemindBefore is how long before each open item of an ACTIVE
	// contract's ledger falls due its buyer is texted; 0 sends none.
	PaymentRemindBefore time.Duration
	// CabinetURL is the cabinet's address on the key listener, where a
	// payment reminder leads when the seller takes no payments online.
	CabinetURL string
	// Money prints an amount in minor units with its currency for a text;
	// nil prints "150000.00 UZS".
	Money func(minor int64, currency string) string
}

// Service carries out every operation of the domain over a Store.
type Service struct {
	store  Store
	opt    Options
	apps   appCache
	tokens tokenCache
	macs   sync.Pool // of hash.Hash, HMAC-SHA256 keyed with opt.Secret
}

// TokenTTL is the lifetime of an embedded access token.
const TokenTTL = time.Hour

// KeyPrefix starts every API key.
const KeyPrefix = "ck_"

// NewService returns a Service. SessionTTL and OTPTTL must be positive;
// other zero options mean "none" as documented, or get a stand-in.
func NewService(store Store, opt Options) *Service {
	if opt.Now == nil {
		opt.Now = time.Now
	}
	// The lifetimes come from the configuration (signing.*), which
	// holds their defaults; a zero one is a caller's mistake.
	if opt.SessionTTL <= 0 || opt.OTPTTL <= 0 {
		panic("signflow: NewService needs a positive SessionTTL and OTPTTL (signing.sessionTTL, signing.otpTTL)")
	}
	if opt.Methods == nil {
		opt.Methods = map[string]bool{}
	}
	opt.Methods[MethodOTP] = true
	if opt.Texts == nil {
		opt.Texts = DefaultSMSTexts()
	}
	if opt.Money == nil {
		opt.Money = func(minor int64, currency string) string {
			return fmt.Sprintf("%d.%02d %s", minor/100, minor%100, currency)
		}
	}
	if opt.Queue == nil {
		opt.Queue = inlineTexts{opt.SMS}
	}
	return &Service{store: store, opt: opt}
}

// Store returns the store the service works on.
func (s *Service) Store() Store { return s.store }

// Now returns the service clock's time.
func (s *Service) Now() time.Time { return s.opt.Now() }

func (s *Service) mac(parts ...string) []byte {
	// Keyed HMAC states are reused: Reset keeps the key, saving its setup
	// on every token check.
	m, _ := s.macs.Get().(hash.Hash)
	if m == nil {
		m = hmac.New(sha256.New, s.opt.Secret)
	} else {
		m.Reset()
	}
	for _, p := range parts {
		io.WriteString(m, p)
		m.Write([]byte{0})
	}
	sum := m.Sum(nil)
	s.macs.Put(m)
	return sum
}

// HashSecret is the stored form of a high-entropy secret (app secret, key,
// session token): SHA-256, enough for random values of 256 bits.
func HashSecret(secret string) []byte {
	sum := sha256.Sum256([]byte(secret))
	return sum[:]
}
