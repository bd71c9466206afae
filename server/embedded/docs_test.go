package embedded

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"contracts/internal/fixture"
	"contracts/internal/testtools"
	"contracts/signflow"
)

var fenced = regexp.MustCompile("(?s)```(yaml|json)\n(.*?)```")

// docs/templates.md's template imports, and its contract creates and
// prints completely in every language: each value where its placeholder
// stands, no dash of a blank. Without a required value it is refused by
// the field's keyName.
func TestTemplatesDocExamples(t *testing.T) {
	doc, err := os.ReadFile(testtools.RepoPath(t, "docs", "templates.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	for _, m := range fenced.FindAllStringSubmatch(string(doc), -1) {
		if _, ok := blocks[m[1]]; !ok {
			blocks[m[1]] = m[2]
		}
	}
	e := newEnv(t, 0)
	tpl := fixture.MustTemplate(t, e.Service, blocks["yaml"])
	for _, key := range []string{"deliveryAddress", "warrantyMonths", "color"} {
		if !tpl.FieldByKey(key).Required {
			t.Fatalf("%s is not required", key)
		}
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(strings.Replace(blocks["json"], "<the template's id>", tpl.ID, 1)), &body); err != nil {
		t.Fatal(err)
	}
	tok := e.token(e.AppA)
	id := e.createContract(tok, body)
	for lang, want := range map[string][]string{
		"uz": {"Sotuvchi tovarlarni Toshkent, Chilonzor 7 manziliga yetkazadi", "Kafolat: 12 oy. Izoh: Qoʻngʻiroq qilib keling."},
		"ru": {"Продавец доставляет товары по адресу Toshkent, Chilonzor 7", "Гарантия: 12 мес. Примечание: Qoʻngʻiroq qilib keling."},
		"en": {"The Seller delivers the goods to Toshkent, Chilonzor 7", "Warranty: 12 months. Note: Qoʻngʻiroq qilib keling."},
	} {
		r := e.do("GET", "/v1/contracts/"+id+"/pdf?lang="+lang, tok, nil)
		text := strings.Join(strings.Fields(testtools.PDFText(t, []byte(r.Body))), " ")
		for _, w := range append(want, "qora", "Televizor") {
			if !strings.Contains(text, w) {
				t.Errorf("%s: the PDF lacks %q:\n%s", lang, w, text)
			}
		}
		if strings.Contains(text, signflow.Blank) {
			t.Errorf("%s: the PDF has a blank:\n%s", lang, text)
		}
	}
	values := body["values"].([]any)
	body["values"] = values[1:]
	r := e.do("POST", "/v1/contracts", tok, body)
	if r.Status != 400 || !strings.Contains(r.Body, "values: deliveryAddress is required by the template") {
		t.Fatalf("without deliveryAddress: %d %s", r.Status, r.Body)
	}
	body["values"] = values[:2]
	body["products"].([]any)[0].(map[string]any)["values"] = map[string]any{}
	r = e.do("POST", "/v1/contracts", tok, body)
	if r.Status != 400 || !strings.Contains(r.Body, "products[0].values: color is required by the template") {
		t.Fatalf("a product without color: %d %s", r.Status, r.Body)
	}
	delete(body["products"].([]any)[0].(map[string]any), "values")
	body["products"].([]any)[0].(map[string]any)["values"] = map[string]any{"color": "qora"}
	id = e.createContract(tok, body)
	r = e.do("GET", "/v1/contracts/"+id+"/pdf?lang=en", tok, nil)
	if text := strings.Join(strings.Fields(testtools.PDFText(t, []byte(r.Body))), " "); !strings.Contains(text, "Note: —.") {
		t.Errorf("the note left out does not print a dash:\n%s", text)
	}
	var fields []map[string]any
	if err := json.Unmarshal([]byte(e.do("GET", "/v1/templates/"+tpl.ID+"/fields", tok, nil).Body), &fields); err != nil {
		t.Fatal(err)
	}
	for _, f := range fields {
		if f["required"] != (f["keyName"] != "note") {
			t.Errorf("field %v: required %v", f["keyName"], f["required"])
		}
	}
}
