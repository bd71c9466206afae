package config

import (
	"fmt"
	"reflect"
	"sort"
	"time"

	"github.com/knadh/koanf/v2"
)

// badValue finds the key whose value the typed struct cannot hold and says
// so in the words of every other config error, instead of the decoder's
// message: each set key is decoded alone over the defaults until one fails.
func badValue(k, defaults *koanf.Koanf, source map[string]string) error {
	keys := k.Keys()
	sort.Strings(keys)
	for _, key := range keys {
		one := defaults.Copy()
		if err := one.Set(key, k.Get(key)); err != nil {
			continue
		}
		var cfg Config
		if one.UnmarshalWithConf("", &cfg, koanf.UnmarshalConf{Tag: "koanf"}) == nil {
			continue
		}
		from := ""
		if s := source[key]; s != "" {
			from = " (from " + s + ")"
		}
		return fmt.Errorf("config: %s: %q %s%s", key, fmt.Sprint(k.Get(key)), wantOf(defaults.Get(key)), from)
	}
	return fmt.Errorf("config: a value cannot be read")
}

// wantOf says what a key of the default's type takes.
func wantOf(def any) string {
	switch def.(type) {
	case time.Duration:
		return "is not a duration with a unit (e.g. 30s, 5m)"
	case int, int64, int32, uint, uint64:
		return "is not a whole number"
	case float64, float32:
		return "is not a number"
	case bool:
		return "is not true or false"
	}
	if def != nil && reflect.ValueOf(def).Kind() == reflect.Slice {
		return "is not a list"
	}
	return "is not a value of this key"
}
