package signflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// A template definition is typed by people: each refusal names the line
// of the text it concerns, in Error.Line and at the head of its message.

// atLine returns an EINVALID error about line (0: no line known).
func atLine(line int, format string, args ...any) *Error {
	e := Errorf(EINVALID, format, args...)
	if line > 0 {
		e.Line, e.Message = line, fmt.Sprintf("line %d: %s", line, e.Message)
	}
	return e
}

// refuse returns the refusal of the value at path ("fields[0].type").
func (d *TemplateDefinition) refuse(path, format string, args ...any) *Error {
	return atLine(d.lineOf(path), "%s: %s", path, fmt.Sprintf(format, args...))
}

// lineOf is the line of the key at path, or of the nearest key above it
// that the source has (a missing name.uz is refused at name).
func (d *TemplateDefinition) lineOf(path string) int {
	for path != "" {
		if line, ok := d.lines[path]; ok {
			return line
		}
		i := strings.LastIndexAny(path, ".[")
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return 0
}

// textLines marks, in the map of sourceLines, the first line of the text
// of a literal block ("body.uz|"), where a placeholder's line is counted from.
const textLines = "|"

// sourceLines maps the path of every key of a YAML or JSON text (JSON
// reads as YAML) to the line of the key; nil when it does not parse.
func sourceLines(data []byte) map[string]int {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	out := map[string]int{}
	var walk func(n *yaml.Node, path string)
	walk = func(n *yaml.Node, path string) {
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := n.Content[i].Value
				if path != "" {
					p = path + "." + p
				}
				out[p] = n.Content[i].Line
				if v := n.Content[i+1]; v.Kind == yaml.ScalarNode && v.Style&yaml.LiteralStyle != 0 {
					out[p+textLines] = v.Line + 1
				}
				walk(n.Content[i+1], p)
			}
		case yaml.SequenceNode:
			for i, item := range n.Content {
				p := path + "[" + strconv.Itoa(i) + "]"
				out[p] = item.Line
				walk(item, p)
			}
		}
	}
	walk(doc.Content[0], "")
	return out
}

var yamlLine = regexp.MustCompile(`line (\d+):? ?`)

// yamlErrorLine is the line of a YAML decoding error in data. The decoder
// names, for an unclosed construct, the line before the one it opened on
// (a 0-based line printed as it is), unless it opened on the first.
func yamlErrorLine(data []byte, err error) int {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	if strings.Contains(err.Error(), "did not find expected") {
		n = min(n+1, bytes.Count(bytes.TrimRight(data, "\n"), []byte{'\n'})+1)
	}
	return n
}

// yamlReason is the decoder's reason without its "yaml:" and line prefix.
func yamlReason(err error) string {
	s := strings.TrimSpace(firstLine(err.Error()))
	if s == "yaml: unmarshal errors:" {
		s = strings.TrimSpace(strings.SplitN(err.Error(), "\n", 3)[1])
	}
	s = strings.TrimPrefix(s, "yaml: ")
	return strings.TrimSpace(yamlLine.ReplaceAllString(s, ""))
}

// jsonErrorLine is the line of the offset a JSON decoding error names.
func jsonErrorLine(data []byte, err error) int {
	var off int64
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		off = te.Offset
	case errors.As(err, &se):
		off = se.Offset
	default:
		return 0
	}
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte{'\n'}) + 1
}
