package signflow

import (
	"bytes"
	"strings"

	"gopkg.in/yaml.v3"
)

// Definition is the definition t was imported from, as far as the record
// keeps it: what an administrator edits to make the next version.
func (t *Template) Definition() *TemplateDefinition {
	d := &TemplateDefinition{Name: t.Name, SellerName: t.SellerName, BuyerName: t.BuyerName, Type: t.Type, Status: t.Status,
		Purpose: t.Purpose, ExchangeMode: t.ExchangeMode, IndividualVerificationType: t.IndividualVerificationType,
		LegalVerificationType: t.LegalVerificationType, EnabledCurrencies: t.EnabledCurrencies, ProductEnabled: t.ProductEnabled,
		ProductRequired: t.ProductRequired, PaymentScheduleEnabled: t.PaymentScheduleEnabled, InitialPaymentEnabled: t.InitialPaymentEnabled,
		WitnessEnabled: t.WitnessEnabled, WitnessCount: t.WitnessCount, Body: t.Body}
	for _, f := range t.Fields {
		if f.Deleted {
			continue
		}
		fd := FieldDef{KeyName: f.KeyName, Type: f.Type, Position: f.Position, ProductField: f.ProductField, Required: f.Required,
			Options: f.Options, Name: f.Name}
		if f.ParentKey != nil {
			fd.ParentKey = *f.ParentKey
		}
		d.Fields = append(d.Fields, fd)
	}
	return d
}

// YAML writes the definition in the import format, in its keys' order,
// leaving out the keys that hold their default; names on one line, bodies
// of several lines as literal blocks.
func (d *TemplateDefinition) YAML() ([]byte, error) {
	var doc yaml.Node
	if err := doc.Encode(d); err != nil {
		return nil, err
	}
	tidy(&doc, "")
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, err
	}
	return b.Bytes(), enc.Close()
}

func tidy(n *yaml.Node, key string) {
	switch n.Kind {
	case yaml.MappingNode:
		var kept []*yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if zero(v) {
				continue
			}
			tidy(v, k.Value)
			kept = append(kept, k, v)
		}
		n.Content = kept
		if key == "name" || key == "sellerName" || key == "buyerName" || key == "enabledCurrencies" {
			n.Style = yaml.FlowStyle
		}
	case yaml.SequenceNode:
		for _, item := range n.Content {
			tidy(item, "")
		}
		if key == "enabledCurrencies" || key == "options" {
			n.Style = yaml.FlowStyle
		}
	case yaml.ScalarNode:
		if strings.Contains(n.Value, "\n") {
			n.Style = yaml.LiteralStyle
		}
	}
}

func zero(v *yaml.Node) bool {
	switch v.Kind {
	case yaml.ScalarNode:
		return v.Value == "" || v.Tag == "!!bool" && v.Value == "false" || v.Tag == "!!int" && v.Value == "0"
	case yaml.SequenceNode, yaml.MappingNode:
		return len(v.Content) == 0
	}
	return false
}
