package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/knadh/koanf/parsers/yaml"
	yamlv3 "gopkg.in/yaml.v3"
)

// oneDocumentYAML is koanf's YAML parser that also refuses a second
// document or text after the first, which yaml.Unmarshal silently drops:
// a file damaged that way must not start the appliance on half its settings.
type oneDocumentYAML struct{ *yaml.YAML }

func (p oneDocumentYAML) Unmarshal(b []byte) (map[string]any, error) {
	dec := yamlv3.NewDecoder(bytes.NewReader(b))
	var first, next yamlv3.Node
	if err := dec.Decode(&first); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		if err == nil {
			return nil, fmt.Errorf("a second YAML document (after ---) at line %d: keep the whole configuration in one", next.Line)
		}
		return nil, fmt.Errorf("text after the first YAML document: %w", err)
	}
	return p.YAML.Unmarshal(b)
}
