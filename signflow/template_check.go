package signflow

import (
	"reflect"
	"regexp"
	"slices"
	"strings"
)

// TemplateTypes are the values of a template's type.
var TemplateTypes = []string{"B2C", "B2B", "C2C", "B2G"}

// Builtins are the placeholders of a body that are not fields
// (docs/templates.md); FillBody fills them.
var Builtins = []string{"price", "initialPayment", "currency", "number", "buyer.name", "buyer.in", "seller.name", "seller.in"}

// knownKeys are the paths of the keys the format has, with "[]" for any
// index ("fields[].name.uz"), taken from TemplateDefinition's yaml names.
var knownKeys = keyPaths(reflect.TypeOf(TemplateDefinition{}), "", map[string]bool{})

func keyPaths(t reflect.Type, path string, out map[string]bool) map[string]bool {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" || name == "-" {
			continue
		}
		p := name
		if path != "" {
			p = path + "." + name
		}
		out[p] = true
		ft := f.Type
		if ft.Kind() == reflect.Slice {
			p += "[]"
			out[p] = true
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Struct {
			keyPaths(ft, p, out)
		}
	}
	return out
}

var index = regexp.MustCompile(`\[\d+\]`)

// unknownKey refuses the first key of the source, by line, that the
// format does not have (a misspelled "productRequried" would be ignored).
func (d *TemplateDefinition) unknownKey() error {
	var bad string
	for p, line := range d.lines {
		if strings.HasSuffix(p, textLines) || knownKeys[index.ReplaceAllString(p, "[]")] {
			continue
		}
		if bad == "" || line < d.lines[bad] || line == d.lines[bad] && p < bad {
			bad = p
		}
	}
	if bad == "" {
		return nil
	}
	return atLine(d.lines[bad], "%s: unknown key", bad)
}

// unknownPlaceholder refuses the first placeholder of the body, by
// language, that names neither a field of the definition nor a built-in:
// it would print as nothing.
func (d *TemplateDefinition) unknownPlaceholder() error {
	fields := map[string]bool{}
	for _, f := range d.Fields {
		fields[f.KeyName] = !f.ProductField
	}
	for _, lang := range []string{"uz", "ru", "en"} {
		body := map[string]string{"uz": d.Body.UZ, "ru": d.Body.RU, "en": d.Body.EN}[lang]
		for _, m := range placeholder.FindAllStringSubmatchIndex(body, -1) {
			name := body[m[2]:m[3]]
			if slices.Contains(Builtins, name) || fields[name] {
				continue
			}
			line := d.lineOf("body." + lang)
			if first, ok := d.lines["body."+lang+textLines]; ok {
				line = first + strings.Count(body[:m[0]], "\n")
			}
			why := "no field or built-in of this name"
			if _, ok := fields[name]; ok {
				why = "a product field is filled per product line, not in the body"
			}
			return atLine(line, "body.%s: unknown placeholder {{%s}}: %s", lang, name, why)
		}
	}
	return nil
}
