package config

import (
	"slices"
	"strings"
	"testing"
)

// The limits of issue 25: their defaults, set from YAML and the
// environment, and a bad value refused naming its key.
func TestConfigTenantLimits(t *testing.T) {
	cfg, err := loadConfigWith(t, "", nil)
	if err != nil || cfg.RateLimit.CodesPerPartyPerDay != 20 || cfg.RateLimit.WrongCodesPerPartyPerDay != 10 || cfg.RateLimit.VerifyConcurrent != 2 || cfg.Webhooks.PerTargetConcurrency != 4 || cfg.RateLimit.CabinetCodesPerNumberPerDay != 10 ||
		!slices.Equal(cfg.SMS.CountryCodes(), []string{"998"}) {
		t.Fatalf("defaults: %+v %v %v", cfg.RateLimit, cfg.SMS.AllowedCountryCodes, err)
	}
	cfg, err = loadConfigWith(t, "sms:\n  allowedCountryCodes: [998, 7]\nratelimit:\n  codesPerPartyPerDay: 5\n",
		map[string]string{"CONTRACTS_RATELIMIT__WRONGCODESPERPARTYPERDAY": "3"})
	if err != nil || cfg.RateLimit.CodesPerPartyPerDay != 5 || cfg.RateLimit.WrongCodesPerPartyPerDay != 3 ||
		!slices.Equal(cfg.SMS.CountryCodes(), []string{"998", "7"}) {
		t.Fatalf("set: %+v %v %v", cfg.RateLimit, cfg.SMS.AllowedCountryCodes, err)
	}
	cfg, err = loadConfigWith(t, "", map[string]string{"CONTRACTS_SMS__ALLOWEDCOUNTRYCODES": "998,992"})
	if err != nil || !slices.Equal(cfg.SMS.CountryCodes(), []string{"998", "992"}) {
		t.Fatalf("env: %v %v", cfg.SMS.AllowedCountryCodes, err)
	}
	for yml, key := range map[string]string{"ratelimit:\n  codesPerPartyPerDay: -1\n": "ratelimit.codesPerPartyPerDay",
		"ratelimit:\n  wrongCodesPerPartyPerDay: -1\n": "ratelimit.wrongCodesPerPartyPerDay",
		"sms:\n  allowedCountryCodes: [9980]\n":        "sms.allowedCountryCodes",
		"ratelimit:\n  verifyConcurrent: -1\n":         "ratelimit.verifyConcurrent",
		"webhooks:\n  perTargetConcurrency: 0\n":       "webhooks.perTargetConcurrency"} {
		if _, err := loadConfigWith(t, yml, nil); err == nil || !strings.Contains(err.Error(), key) {
			t.Errorf("%s: %v", key, err)
		}
	}
}
