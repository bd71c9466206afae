package signflow

import (
	"crypto/subtle"
	"strings"

	"github.com/google/uuid"
)

// VerifyPrefixLen is how many hex digits of the document hash a verify
// link carries; without them a contract id alone shows nothing.
const VerifyPrefixLen = 16

// Verify returns a contract for the public verify page when hashPrefix is
// the first VerifyPrefixLen hex digits of its document hash.
func (s *Service) Verify(id, hashPrefix string) (*ContractView, error) {
	notFound := Errorf(ENOTFOUND, "No contract matches this link.")
	if uuid.Validate(id) != nil || len(hashPrefix) != VerifyPrefixLen {
		return nil, notFound
	}
	var v *ContractView
	err := s.store.View(func(tx Tx) error {
		c, err := tx.Contract(id)
		if err != nil {
			return err
		}
		v, err = viewOf(tx, c)
		return err
	})
	if ErrorCode(err) == ENOTFOUND {
		return nil, notFound
	} else if err != nil {
		return nil, err
	}
	if subtle.ConstantTimeCompare([]byte(strings.ToLower(hashPrefix)), []byte(v.Hash[:VerifyPrefixLen])) != 1 {
		return nil, notFound
	}
	return v, nil
}

// MaskIN shows only the first two and last two digits of a party number.
func MaskIN(in string) string {
	if len(in) <= 4 {
		return strings.Repeat("*", len(in))
	}
	return in[:2] + strings.Repeat("*", len(in)-4) + in[len(in)-2:]
}

// VerifyURL is the public link to a contract's verify page.
func VerifyURL(baseURL string, c *Contract) string {
	return strings.TrimRight(baseURL, "/") + "/verify/" + c.ID + "?h=" + c.Hash[:VerifyPrefixLen]
}
