package signflow

import (
	"encoding/json"
	"slices"
	"strings"
)

// The money lines of a contract: its payment schedule and its goods, each
// amount and each sum within MaxMoney.

func addPayments(c *Contract, t *Template, payments []Payment) error {
	if len(payments) > 0 && !t.PaymentScheduleEnabled {
		return Errorf(EINVALID, "payments: the template has no payment schedule")
	}
	if len(payments) > MaxPayments {
		return Errorf(EINVALID, "payments: at most %d", MaxPayments)
	}
	var total int64
	for i, p := range payments {
		if p.Amount <= 0 || p.PaymentDate.IsZero() {
			return Errorf(EINVALID, "payments[%d]: amount above 0 and paymentDate are required", i)
		}
		if err := checkLineMoney(p.Amount, "payments", i, "amount"); err != nil {
			return err
		}
		// Each amount is within MaxMoney, so the sum cannot wrap before this check.
		if total += p.Amount; total > MaxMoney {
			return Errorf(EINVALID, "payments: the amounts must add up to at most %s", maxMoneyText)
		}
		c.Payments = append(c.Payments, Payment{Amount: p.Amount, PaymentDate: UTC(p.PaymentDate)})
	}
	return nil
}

// Bounds of a product field's value, which is any JSON: every one is
// rendered into the PDF, so its size and nesting are bounded.
const (
	maxProductValueSize  = 10000 // bytes of its JSON, as a field value's text
	maxProductValueDepth = 4     // arrays and objects within each other
)

// checkProductValue checks a product field's value: a text as a field
// value is checked, and a STRING field's must be one; any other value is
// bounded in size and nesting.
func checkProductValue(f *Field, v any) error {
	if s, ok := v.(string); ok {
		return checkFieldValue(f, s)
	}
	if f.Type == "STRING" {
		return Errorf(EINVALID, "must be a string")
	}
	if depth(v) > maxProductValueDepth {
		return Errorf(EINVALID, "nested too deep: at most %d levels of arrays and objects", maxProductValueDepth)
	}
	if b, err := json.Marshal(v); err != nil || len(b) > maxProductValueSize {
		return Errorf(EINVALID, "too long")
	}
	return nil
}

// depth is how many arrays and objects v holds within each other.
func depth(v any) int {
	d := 0
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	case map[string]any:
		for _, e := range x {
			d = max(d, depth(e))
		}
		return d + 1
	}
	return 0
}

func addProducts(c *Contract, t *Template, products []Product) error {
	if len(products) > 0 && !t.ProductEnabled {
		return Errorf(EINVALID, "products: the template has no products")
	}
	if len(products) == 0 && t.ProductRequired {
		return Errorf(EINVALID, "products: required by the template")
	}
	if len(products) > MaxProducts {
		return Errorf(EINVALID, "products: at most %d", MaxProducts)
	}
	var total int64
	for i, p := range products {
		p.Name = strings.TrimSpace(p.Name)
		if p.Name == "" || len(p.Name) > 500 {
			return Errorf(EINVALID, "products[%d].name: required, at most 500 characters", i)
		}
		if p.Unit == "" {
			p.Unit = "DONA"
		}
		if !slices.Contains(Units, p.Unit) {
			return Errorf(EINVALID, "products[%d].unit: must be one of DONA, KG, LITR", i)
		}
		if !(p.Quantity > 0 && p.Quantity < 1e9) {
			return Errorf(EINVALID, "products[%d].quantity: must be above 0", i)
		}
		if err := checkLineMoney(p.Price, "products", i, "price"); err != nil {
			return err
		}
		if err := checkLineMoney(p.Amount, "products", i, "amount"); err != nil {
			return err
		}
		want, ok := lineAmount(p.Price, p.Quantity)
		if !ok {
			return Errorf(EINVALID, "products[%d]: price × quantity must be at most %s", i, maxMoneyText)
		}
		if p.Amount == 0 {
			p.Amount = want
		} else if d := p.Amount - want; d > 1 || d < -1 {
			return Errorf(EINVALID, "products[%d].amount: must equal price × quantity", i)
		}
		if total += p.Amount; total > MaxMoney {
			return Errorf(EINVALID, "products: the amounts must add up to at most %s", maxMoneyText)
		}
		for k, v := range p.Values {
			f := t.FieldByKey(k)
			if f == nil || !f.ProductField {
				return Errorf(EINVALID, "products[%d].values: %q is not a product field of the template", i, k)
			}
			if err := checkProductValue(f, v); err != nil {
				return Errorf(EINVALID, "products[%d].values.%s: %s", i, k, err.(*Error).Message)
			}
		}
		for _, f := range t.Fields {
			if f.Required && !f.Deleted && f.ProductField && blank(p.Values[f.KeyName]) {
				return Errorf(EINVALID, "products[%d].values: %s is required by the template", i, f.KeyName)
			}
		}
		p.ID, p.DeliveryAt = NewID(), utcPtr(p.DeliveryAt)
		c.Products = append(c.Products, p)
	}
	return nil
}

// blank reports whether a product field's value says nothing.
func blank(v any) bool {
	s, ok := v.(string)
	return v == nil || ok && strings.TrimSpace(s) == ""
}
