package embedded

import (
	"encoding/json"

	"contracts/signflow"

	"github.com/google/uuid"
)

// major renders minor units as a major-unit JSON number.
func major(minor int64) json.Number { return signflow.MajorNumber(minor) }

// currencyIDs gives each currency a stable UUID (SHA-1 name-based), the
// same on every installation.
var currencyIDs = func() map[string]string {
	m := make(map[string]string, len(signflow.Currencies))
	for _, c := range signflow.Currencies {
		m[c] = uuid.NewSHA1(uuid.NameSpaceURL, []byte("urn:contracts:currency:"+c)).String()
	}
	return m
}()

// currencyID is the UUID of a currency code, nil for an unknown code.
func currencyID(code string) *string {
	if id, ok := currencyIDs[code]; ok {
		return &id
	}
	return nil
}
