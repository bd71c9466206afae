package config

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"

	"contracts/signflow"
)

// validateTexts checks each sms.texts.<kind>.<lang> replacement: a known
// kind and language, and the placeholders its kind needs.
func (s SMSConfig) validateTexts() error {
	kinds := make([]string, 0, len(s.Texts))
	for kind := range s.Texts {
		kinds = append(kinds, kind)
	}
	sort.Strings(kinds)
	for _, kind := range kinds {
		if !slices.Contains(signflow.SMSKinds, signflow.SMSKind(kind)) {
			return fmt.Errorf("config: sms.texts.%s: not a kind of SMS text (%v)", kind, signflow.SMSKinds)
		}
		langs := make([]string, 0, len(s.Texts[kind]))
		for lang := range s.Texts[kind] {
			langs = append(langs, lang)
		}
		sort.Strings(langs)
		for _, lang := range langs {
			key := "sms.texts." + kind + "." + lang
			if !slices.Contains(signflow.Languages, lang) {
				return fmt.Errorf("config: %s: %q is not one of the languages %v", key, lang, signflow.Languages)
			}
			if err := signflow.CheckSMSText(signflow.SMSKind(kind), s.Texts[kind][lang]); err != nil {
				return fmt.Errorf("config: %s: %v", key, err)
			}
		}
	}
	return nil
}

// smsTextKey is the key of a CONTRACTS_SMS__TEXTS__<KIND>__<LANG>
// variable, its kind spelt as configuration spells it.
func smsTextKey(lower string) (string, bool) {
	rest, ok := cutPrefixFold(lower, "sms.texts.")
	if !ok {
		return "", false
	}
	for _, kind := range signflow.SMSKinds {
		if lang, ok := cutPrefixFold(rest, string(kind)+"."); ok {
			return "sms.texts." + string(kind) + "." + lang, true
		}
	}
	return "sms.texts." + rest, true
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return "", false
	}
	return s[len(prefix):], true
}

// needAll names the first empty key of section.
func needAll(section string, values map[string]string) error {
	names := make([]string, 0, len(values))
	for name := range values {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if values[name] == "" {
			return fmt.Errorf("config: %s.%s: required with sms.provider %s", section, name, section[len("sms."):])
		}
	}
	return nil
}

func absoluteURL(key, u string) error {
	if p, err := url.Parse(u); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return fmt.Errorf("config: %s: %q is not an absolute http(s) URL", key, u)
	}
	return nil
}

// validateFlows checks identity.*.flow: MyID's web check needs its client
// and its two URLs; AbleID has only the OAuth2 flow.
func (i IdentityConfig) validateFlows() error {
	switch i.MyID.Flow {
	case "oauth":
	case "web":
		if i.MyID.ClientID != "" && i.MyID.ClientSecret == "" {
			return fmt.Errorf("config: identity.myid.clientSecret: required with flow web")
		}
		for _, u := range []keyed[string]{{"identity.myid.baseURL", i.MyID.BaseURL}, {"identity.myid.webURL", i.MyID.WebURL}} {
			if err := absoluteURL(u.key, u.v); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("config: identity.myid.flow: %q is not oauth or web", i.MyID.Flow)
	}
	if i.AbleID.Flow != "oauth" {
		return fmt.Errorf("config: identity.ableid.flow: %q; AbleID has only the oauth flow", i.AbleID.Flow)
	}
	return nil
}
