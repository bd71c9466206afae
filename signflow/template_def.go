package signflow

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// TemplateDefinition is the import format of a template (docs/templates.md).
type TemplateDefinition struct {
	Name                       Text       `json:"name" yaml:"name"`
	SellerName                 Text       `json:"sellerName" yaml:"sellerName"`
	BuyerName                  Text       `json:"buyerName" yaml:"buyerName"`
	Type                       string     `json:"type" yaml:"type"`
	Status                     string     `json:"status" yaml:"status"`
	Purpose                    string     `json:"purpose" yaml:"purpose"`
	ExchangeMode               string     `json:"exchangeMode" yaml:"exchangeMode"`
	IndividualVerificationType string     `json:"individualVerificationType" yaml:"individualVerificationType"`
	LegalVerificationType      string     `json:"legalVerificationType" yaml:"legalVerificationType"`
	EnabledCurrencies          []string   `json:"enabledCurrencies" yaml:"enabledCurrencies"`
	ProductEnabled             bool       `json:"productEnabled" yaml:"productEnabled"`
	ProductRequired            bool       `json:"productRequired" yaml:"productRequired"`
	PaymentScheduleEnabled     bool       `json:"paymentScheduleEnabled" yaml:"paymentScheduleEnabled"`
	InitialPaymentEnabled      bool       `json:"initialPaymentEnabled" yaml:"initialPaymentEnabled"`
	WitnessEnabled             bool       `json:"witnessEnabled" yaml:"witnessEnabled"`
	WitnessCount               int        `json:"witnessCount" yaml:"witnessCount"`
	CompleteWhenPaid           bool       `json:"completeWhenPaid" yaml:"completeWhenPaid"`
	Fields                     []FieldDef `json:"fields" yaml:"fields"`
	Body                       Text       `json:"body" yaml:"body"`

	// lines maps the path of each key of the source ("fields[0].type")
	// to its line, so that a refusal names the line it concerns.
	lines map[string]int
}

// FieldDef is one field of a template definition.
type FieldDef struct {
	KeyName      string   `json:"keyName" yaml:"keyName"`
	ParentKey    string   `json:"parentKey" yaml:"parentKey"`
	Type         string   `json:"type" yaml:"type"`
	Position     string   `json:"position" yaml:"position"`
	ProductField bool     `json:"productField" yaml:"productField"`
	Required     bool     `json:"required" yaml:"required"`
	Options      []string `json:"options" yaml:"options"`
	Name         Text     `json:"name" yaml:"name"`
}

// ParseTemplateDefinition decodes a definition from JSON, or from YAML when
// isYAML is set. Malformed input is EINVALID with the decoder's reason.
// Every refusal names the line of the source it concerns (Error.Line).
func ParseTemplateDefinition(data []byte, isYAML bool) (*TemplateDefinition, error) {
	var def TemplateDefinition
	if isYAML {
		if err := yaml.Unmarshal(data, &def); err != nil {
			return nil, atLine(yamlErrorLine(data, err), "malformed YAML: %s", yamlReason(err))
		}
		if err := oneYAMLDocument(data); err != nil {
			return nil, err
		}
	} else {
		dec := json.NewDecoder(bytes.NewReader(data))
		if err := dec.Decode(&def); err != nil {
			return nil, atLine(jsonErrorLine(data, err), "malformed JSON: %s", DescribeJSONError(err))
		}
		// Decode stops after the first value; what follows must be nothing.
		if off := int(dec.InputOffset()); len(bytes.TrimSpace(data[off:])) > 0 {
			rest := off + len(data[off:]) - len(bytes.TrimLeft(data[off:], " \t\r\n"))
			return nil, atLine(bytes.Count(data[:rest], []byte{'\n'})+1, "malformed JSON: text after the definition's value")
		}
	}
	def.lines = sourceLines(data)
	return &def, nil
}

// oneYAMLDocument refuses a second document or text after the first, which
// yaml.Unmarshal silently drops, as the configuration's loader does.
func oneYAMLDocument(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var first, next yaml.Node
	if err := dec.Decode(&first); err != nil {
		return nil // empty: yaml.Unmarshal's answer stands
	}
	err := dec.Decode(&next)
	switch {
	case err == nil:
		return atLine(next.Line, "malformed YAML: a second YAML document (after ---); keep the definition in one")
	case !errors.Is(err, io.EOF):
		return atLine(yamlErrorLine(data, err), "malformed YAML: text after the definition: %s", yamlReason(err))
	}
	return nil
}

// Validate checks the definition and names the first problem, with its
// line when the definition was parsed from text.
func (d *TemplateDefinition) Validate() error {
	if err := d.unknownKey(); err != nil {
		return err
	}
	if !d.Name.complete() {
		return d.refuse("name", "uz, ru and en are required")
	}
	if !d.SellerName.complete() {
		return d.refuse("sellerName", "uz, ru and en are required")
	}
	if !d.BuyerName.complete() {
		return d.refuse("buyerName", "uz, ru and en are required")
	}
	checks := []struct {
		key, val string
		allowed  []string
	}{
		{"type", d.Type, TemplateTypes},
		{"status", d.Status, []string{TemplatePublished, TemplateDraft}},
		{"purpose", d.Purpose, Purposes},
		{"exchangeMode", d.ExchangeMode, ExchangeModes},
		{"individualVerificationType", d.IndividualVerificationType, []string{MethodOTP, MethodMyID, MethodAbleID}},
		{"legalVerificationType", d.LegalVerificationType, []string{MethodEIMZO}},
	}
	for _, c := range checks {
		if c.val != "" && !slices.Contains(c.allowed, c.val) {
			return d.refuse(c.key, "%q is not one of %s", c.val, strings.Join(c.allowed, ", "))
		}
	}
	for i, cur := range d.EnabledCurrencies {
		if !slices.Contains(Currencies, cur) {
			return d.refuse(fmt.Sprintf("enabledCurrencies[%d]", i), "unknown currency %q", cur)
		}
	}
	if d.ProductRequired && !d.ProductEnabled {
		return d.refuse("productRequired", "needs productEnabled")
	}
	if d.WitnessCount < 0 || d.WitnessCount > 10 || (d.WitnessCount > 0 && !d.WitnessEnabled) {
		return d.refuse("witnessCount", "must be 0 to 10, and 0 unless witnessEnabled")
	}
	seen := map[string]bool{}
	for i, f := range d.Fields {
		where := fmt.Sprintf("fields[%d]", i)
		if f.KeyName == "" || !isKeyName(f.KeyName) {
			return d.refuse(where+".keyName", "required, letters, digits and _ only")
		}
		if seen[f.KeyName] {
			return d.refuse(where+".keyName", "duplicate keyName %q", f.KeyName)
		}
		seen[f.KeyName] = true
		if !slices.Contains(FieldTypes, f.Type) {
			return d.refuse(where+".type", "unknown field type %q", f.Type)
		}
		if f.Position != "" && !slices.Contains(FieldPositions, f.Position) {
			return d.refuse(where+".position", "%q is not one of %s", f.Position, strings.Join(FieldPositions, ", "))
		}
		if !f.Name.complete() {
			return d.refuse(where+".name", "uz, ru and en are required")
		}
	}
	for i, f := range d.Fields {
		if f.ParentKey != "" && !seen[f.ParentKey] {
			return d.refuse(fmt.Sprintf("fields[%d].parentKey", i), "no field %q", f.ParentKey)
		}
	}
	return d.unknownPlaceholder()
}

func isKeyName(s string) bool {
	if len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r == '.' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')) {
			return false
		}
	}
	return true
}

// Template builds the stored template from a validated definition.
func (d *TemplateDefinition) Template(id string, now TimeSource) *Template {
	at := UTC(now())
	t := &Template{
		ID: id, Name: d.Name, SellerName: d.SellerName, BuyerName: d.BuyerName,
		Type: or(d.Type, "B2C"), Status: or(d.Status, TemplatePublished), Purpose: or(d.Purpose, "CONTRACT"),
		ExchangeMode: or(d.ExchangeMode, "GOODS"), IndividualVerificationType: or(d.IndividualVerificationType, MethodOTP),
		LegalVerificationType: or(d.LegalVerificationType, MethodEIMZO), EnabledCurrencies: d.EnabledCurrencies,
		ProductEnabled: d.ProductEnabled, ProductRequired: d.ProductRequired, PaymentScheduleEnabled: d.PaymentScheduleEnabled,
		InitialPaymentEnabled: d.InitialPaymentEnabled, WitnessEnabled: d.WitnessEnabled, WitnessCount: d.WitnessCount,
		Body: d.Body, CreatedAt: at, UpdatedAt: at, Version: 1,
	}
	t.CompleteWhenPaid = d.CompleteWhenPaid
	for _, f := range d.Fields {
		fd := Field{ID: NewID(), TemplateID: id, Name: f.Name, KeyName: f.KeyName, Type: f.Type,
			Position: or(f.Position, "BOTTOM"), ProductField: f.ProductField, Required: f.Required, Options: f.Options, CreatedAt: at, UpdatedAt: at}
		if f.ParentKey != "" {
			pk := f.ParentKey
			fd.ParentKey = &pk
		}
		t.Fields = append(t.Fields, fd)
	}
	return t
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// DescribeJSONError turns a decoding error into a message naming the field.
func DescribeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "body"
		}
		return fmt.Sprintf("%s: must be %s, not %s", field, jsonKind(te.Type.Kind().String()), te.Value)
	case errors.As(err, &se):
		return fmt.Sprintf("invalid JSON at offset %d", se.Offset)
	}
	return firstLine(err.Error())
}

func jsonKind(k string) string {
	switch k {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice", "array":
		return "an array"
	case "struct", "map":
		return "an object"
	}
	return "a number"
}
