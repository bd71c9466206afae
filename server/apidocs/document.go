package apidocs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"
)

// document is one description ready to serve in both forms.
type document struct {
	json, yaml []byte
	title      string
}

// prepare sets the description's servers to the listener's base URL and
// renders it as YAML and as JSON. Both keep the source's key order, so the
// JSON reads like the YAML it comes from.
func prepare(src []byte, baseURL string) (*document, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(src, &root); err != nil {
		return nil, fmt.Errorf("document: %w", err)
	}
	if root.Kind != yaml.DocumentNode || len(root.Content) != 1 || root.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("document: not a YAML mapping")
	}
	top := root.Content[0]
	setServers(top, strings.TrimRight(baseURL, "/"))
	var y bytes.Buffer
	enc := yaml.NewEncoder(&y)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return nil, err
	}
	var compact bytes.Buffer
	if err := writeJSON(&compact, top); err != nil {
		return nil, err
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	pretty.WriteByte('\n')
	title := ""
	if info := lookup(top, "info"); info != nil {
		if t := lookup(info, "title"); t != nil {
			title = t.Value
		}
	}
	return &document{json: pretty.Bytes(), yaml: y.Bytes(), title: title}, nil
}

// setServers replaces (or adds, after info) the servers entry with the one
// base URL.
func setServers(top *yaml.Node, baseURL string) {
	str := func(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }
	servers := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{{
		Kind: yaml.MappingNode, Tag: "!!map",
		Content: []*yaml.Node{str("url"), str(baseURL), str("description"), str("This service")},
	}}}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "servers" {
			top.Content[i+1] = servers
			return
		}
	}
	at := len(top.Content)
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "info" {
			at = i + 2
		}
	}
	top.Content = append(top.Content[:at], append([]*yaml.Node{str("servers"), servers}, top.Content[at:]...)...)
}

// lookup returns the value of key in a mapping node, or nil.
func lookup(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// writeJSON writes a YAML node as JSON, keeping mapping order.
func writeJSON(buf *bytes.Buffer, n *yaml.Node) error {
	switch n.Kind {
	case yaml.AliasNode:
		return writeJSON(buf, n.Alias)
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeString(buf, n.Content[i].Value); err != nil {
				return err
			}
			buf.WriteByte(':')
			if err := writeJSON(buf, n.Content[i+1]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
		return nil
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSON(buf, c); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
		return nil
	case yaml.ScalarNode:
		switch n.ShortTag() {
		case "!!str", "!!timestamp", "!!binary":
			return writeString(buf, n.Value)
		}
		var v any
		if err := n.Decode(&v); err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("line %d: %w", n.Line, err)
		}
		buf.Write(b)
		return nil
	}
	return fmt.Errorf("line %d: unexpected YAML node kind %d", n.Line, n.Kind)
}

func writeString(buf *bytes.Buffer, s string) error {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	return nil
}
