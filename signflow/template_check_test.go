package signflow_test

import (
	"os"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/signflow"
)

// Each import check names its culprit and the line it stands on, in YAML
// and in JSON.
func TestTemplateImportChecks(t *testing.T) {
	head := "name: {uz: a, ru: b, en: c}\nsellerName: {uz: a, ru: b, en: c}\nbuyerName: {uz: a, ru: b, en: c}\n"
	field := "fields:\n  - {keyName: addr, type: STRING, name: {uz: a, ru: b, en: c}}\n  - {keyName: color, type: STRING, productField: true, name: {uz: a, ru: b, en: c}}\n"
	cases := []struct {
		name, text string
		yaml       bool
		line       int
		want       string
	}{
		{"unknown top key", head + "productEnabled: true\nproductRequried: true\n", true, 5, "productRequried: unknown key"},
		{"unknown field key", head + "fields:\n  - keyName: a\n    type: STRING\n    requried: true\n", true, 7, "fields[0].requried: unknown key"},
		{"unknown language", head + "body: {uz: x, ru: y, en: z, de: w}\n", true, 4, "body.de: unknown key"},
		{"unknown JSON key", "{\n  \"name\": {\"uz\": \"a\", \"ru\": \"b\", \"en\": \"c\"},\n  \"colour\": 1\n}", false, 3, "colour: unknown key"},
		{"type", head + "type: B2X\n", true, 4, `type: "B2X" is not one of B2C, B2B, C2C, B2G`},
		{"placeholder, quoted", head + field + "body: {uz: \"{{addr}} {{warantyMonths}}\", ru: x, en: y}\n", true, 7, "body.uz: unknown placeholder {{warantyMonths}}"},
		{"placeholder, literal block", head + field + "body:\n  uz: x\n  ru: |\n    first {{addr}}\n    second {{price}}\n    third {{buyer.nmae}}\n  en: y\n", true, 12, "body.ru: unknown placeholder {{buyer.nmae}}"},
		{"placeholder of a product field", head + field + "body: {uz: \"{{color}}\", ru: x, en: y}\n", true, 7, "unknown placeholder {{color}}: a product field"},
		{"placeholder in JSON", "{\"name\": {\"uz\": \"a\", \"ru\": \"b\", \"en\": \"c\"}, \"sellerName\": {\"uz\": \"a\", \"ru\": \"b\", \"en\": \"c\"},\n\"buyerName\": {\"uz\": \"a\", \"ru\": \"b\", \"en\": \"c\"},\n\"body\": {\"uz\": \"{{number}}\", \"ru\": \"{{nomer}}\", \"en\": \"\"}}", false, 3, "body.ru: unknown placeholder {{nomer}}"},
	}
	for _, tc := range cases {
		def, err := signflow.ParseTemplateDefinition([]byte(tc.text), tc.yaml)
		if err == nil {
			err = def.Validate()
		}
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		if got := signflow.ErrorLine(err); got != tc.line {
			t.Errorf("%s: line %d, want %d (%v)", tc.name, got, tc.line, err)
		}
		if msg := signflow.ErrorMessage(err); !strings.Contains(msg, tc.want) {
			t.Errorf("%s: %q does not say %q", tc.name, msg, tc.want)
		}
	}
	good := head + "type: B2G\n" + field + "body:\n  uz: |\n    {{addr}} {{price}} {{initialPayment}} {{currency}} {{number}}\n    {{buyer.name}} {{buyer.in}} {{seller.name}} {{seller.in}}\n  ru: x\n  en: y\n"
	def, err := signflow.ParseTemplateDefinition([]byte(good), true)
	if err == nil {
		err = def.Validate()
	}
	if err != nil {
		t.Fatalf("a definition with every built-in refused: %v", err)
	}
}

// A required field is refused by name when its value is missing or empty,
// for values and for each product line; nothing is written.
func TestRequiredFields(t *testing.T) {
	w := fixture.NewStandard(t)
	tpl := fixture.MustTemplate(t, w.Service, `name: {uz: a, ru: b, en: c}
sellerName: {uz: a, ru: b, en: c}
buyerName: {uz: a, ru: b, en: c}
productEnabled: true
fields:
  - {keyName: addr, type: STRING, required: true, name: {uz: a, ru: b, en: c}}
  - {keyName: note, type: STRING, name: {uz: a, ru: b, en: c}}
  - {keyName: color, type: STRING, productField: true, required: true, name: {uz: a, ru: b, en: c}}
body: {uz: "{{addr}} {{note}}", ru: "{{addr}}", en: "{{addr}}"}
`)
	if f := tpl.FieldByKey("addr"); !f.Required || tpl.FieldByKey("note").Required {
		t.Fatalf("required not kept: %+v", tpl.Fields)
	}
	a := w.Access(t, w.AppA)
	product := func(v map[string]any) []signflow.Product {
		return []signflow.Product{{Name: "TV", Quantity: 1, Price: 100, Values: v}}
	}
	cases := []struct {
		name     string
		values   []signflow.ValueInput
		products []signflow.Product
		want     string
	}{
		{"value missing", nil, nil, "values: addr is required"},
		{"value empty", []signflow.ValueInput{{KeyName: "addr", Value: "  "}}, nil, "values[0] (addr): required"},
		{"product value missing", []signflow.ValueInput{{KeyName: "addr", Value: "x"}}, product(nil), "products[0].values: color is required"},
		{"product value empty", []signflow.ValueInput{{KeyName: "addr", Value: "x"}}, product(map[string]any{"color": ""}), "products[0].values: color is required"},
		{"complete", []signflow.ValueInput{{KeyName: "addr", Value: "x"}}, product(map[string]any{"color": "red"}), ""},
		{"no products, optional note", []signflow.ValueInput{{KeyName: "addr", Value: "x"}}, nil, ""},
	}
	for _, tc := range cases {
		before := len(listAll(t, w, a))
		_, err := w.Service.CreateContract(a, &signflow.ContractInput{TemplateID: tpl.ID, BuyerIN: fixture.CustomerIN, Price: 100,
			Values: tc.values, Products: tc.products}, signflow.Actor{})
		after := len(listAll(t, w, a))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (signflow.ErrorCode(err) != signflow.EINVALID || !strings.Contains(signflow.ErrorMessage(err), tc.want)):
			t.Errorf("%s: %v, want 400 saying %q", tc.name, err, tc.want)
		case tc.want != "" && after != before:
			t.Errorf("%s: a refused create wrote a contract", tc.name)
		}
	}
}

// Every built-in placeholder an import accepts is documented.
func TestBuiltinsDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/templates.md")
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(doc), "## The body")
	for _, b := range signflow.Builtins {
		if !strings.Contains(body, "`{{"+b+"}}`") {
			t.Errorf("docs/templates.md does not document {{%s}}", b)
		}
	}
}

// The document hash covers the template version from 2 on; a contract of
// version 1, or from before versions, hashes as it did.
func TestHashCoversTemplateVersion(t *testing.T) {
	c := &signflow.Contract{ID: "c", Number: "2026-000001", TemplateID: "t", Price: 100}
	before := signflow.DocumentHash(c)
	c.TemplateVersion = 1
	if signflow.DocumentHash(c) != before {
		t.Fatal("version 1 changed the hash")
	}
	c.TemplateVersion = 2
	if signflow.DocumentHash(c) == before {
		t.Fatal("version 2 hashes as version 1")
	}
}
