package config

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/knadh/koanf/parsers/yaml"
	"github.com/knadh/koanf/providers/confmap"
	"github.com/knadh/koanf/providers/file"
	"github.com/knadh/koanf/providers/structs"
	"github.com/knadh/koanf/v2"
	"github.com/spf13/pflag"
)

// flagKeys maps command-line flags to config keys.
var flagKeys = map[string]string{
	"data-dir": "data.dir", "embedded-listen": "embedded.listen", "key-listen": "key.listen",
	"admin-listen": "admin.listen", "log-level": "log.level", "log-format": "log.format",
}

// AddFlags declares --config and the flags that override configuration keys.
func AddFlags(fs *pflag.FlagSet) {
	fs.String("config", "", "YAML configuration file")
	for name, key := range flagKeys {
		fs.String(name, "", "overrides "+key)
	}
}

// envPrefix starts the environment variables that set keys.
const envPrefix = "CONTRACTS_"

// Load merges defaults < YAML file < CONTRACTS_ variables of environ
// ("KEY=value" pairs, as os.Environ gives them) < flags, decides the
// values left to it (base URLs), and validates the result. Errors name
// the offending key.
func Load(fs *pflag.FlagSet, environ []string) (*Config, error) {
	k := koanf.New(".")
	if err := k.Load(structs.Provider(Default(), "koanf"), nil); err != nil {
		return nil, err
	}
	known, lists := map[string]string{}, map[string]bool{}
	for _, key := range k.Keys() {
		known[strings.ToLower(key)] = key
		lists[key] = reflect.ValueOf(k.Get(key)).Kind() == reflect.Slice
	}
	defaults := k.Copy()
	source := map[string]string{} // key -> where a value other than the file's came from
	if path, _ := fs.GetString("config"); path != "" {
		if err := k.Load(file.Provider(path), oneDocumentYAML{yaml.Parser()}); err != nil {
			// yaml.v3 starts its messages with its own name; the file's is what helps.
			return nil, fmt.Errorf("config: file %s: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
		}
	}
	env, err := envKeys(environ, known, lists, source)
	if err != nil {
		return nil, err
	}
	if err := k.Load(confmap.Provider(env, "."), nil); err != nil {
		return nil, err
	}
	for name, key := range flagKeys {
		if f := fs.Lookup(name); f != nil && f.Changed {
			if err := k.Set(key, f.Value.String()); err != nil {
				return nil, err
			}
			source[key] = "--" + name
		}
	}
	if err := checkKnownKeys(k, known); err != nil {
		return nil, err
	}
	var cfg Config
	if err := k.UnmarshalWithConf("", &cfg, koanf.UnmarshalConf{Tag: "koanf"}); err != nil {
		return nil, badValue(k, defaults, source)
	}
	cfg.fillDerived()
	return &cfg, cfg.Validate()
}

// envKeys maps the CONTRACTS_ variables of environ onto config keys and
// notes in source which variable set each. Every key has a level, so a
// name with "__" is meant as a key and one that names none is refused (a
// typo would otherwise pass unseen); names without it (CONTRACTS_ADMIN_TOKEN,
// CONTRACTS_TEST_POSTGRES) belong to tools. A list is written comma- or
// space-separated.
func envKeys(environ []string, known map[string]string, lists map[string]bool, source map[string]string) (map[string]any, error) {
	out := map[string]any{}
	var unknown []string
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || !strings.HasPrefix(name, envPrefix) || !strings.Contains(name, "__") {
			continue
		}
		key := strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(name, envPrefix)), "__", ".")
		canon, ok := known[key]
		switch {
		case ok && lists[canon]:
			out[canon] = strings.FieldsFunc(value, func(r rune) bool { return r == ',' || r == ' ' })
		case ok:
			out[canon] = value
		case strings.HasPrefix(key, "sms.texts."):
			canon, _ = smsTextKey(key)
			out[canon] = value
		case strings.HasPrefix(key, "sms.http.headers.") && len(key) > len("sms.http.headers."):
			canon = "sms.http.headers." + name[len("CONTRACTS_SMS__HTTP__HEADERS__"):]
			out[canon] = value
		default:
			unknown = append(unknown, name)
			continue
		}
		source[canon] = name
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		return nil, fmt.Errorf("config: %s: the environment variable names no configuration key", unknown[0])
	}
	return out, nil
}

func checkKnownKeys(k *koanf.Koanf, known map[string]string) error {
	var unknown []string
	for _, key := range k.Keys() {
		if _, ok := known[strings.ToLower(key)]; !ok && !strings.HasPrefix(key, "sms.http.headers.") && !strings.HasPrefix(key, "sms.texts.") {
			unknown = append(unknown, key)
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		return fmt.Errorf("config: %s: unknown key", unknown[0])
	}
	return nil
}
