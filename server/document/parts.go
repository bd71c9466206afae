package document

import (
	"slices"
	"strings"

	"contracts/signflow"
)

// terms lists the filled fields in their position, then in the
// template's order of fields.
func (d *Doc) terms(v *signflow.ContractView, tpl *signflow.Template) {
	order := map[string]int{}
	for i, f := range tpl.Fields {
		order[f.ID] = i
	}
	values := slices.Clone(v.Values)
	slices.SortStableFunc(values, func(a, b signflow.Value) int {
		if a.Position != b.Position {
			return int(a.Position) - int(b.Position)
		}
		return order[a.TemplateFieldID] - order[b.TemplateFieldID]
	})
	for _, val := range values {
		f := tpl.Field(val.TemplateFieldID)
		label := val.KeyName
		if f != nil {
			label = f.Name.In(d.Lang)
		}
		d.Terms = append(d.Terms, Term{Label: label, Value: d.value(f, val.Value)})
	}
}

// products lists the goods, each with its own fields in the template's
// order of fields (unknown keys after them, by name) and its delivery date.
func (d *Doc) products(v *signflow.ContractView, tpl *signflow.Template) {
	rank := func(key string) int {
		for i, f := range tpl.Fields {
			if f.KeyName == key && !f.Deleted {
				return i
			}
		}
		return len(tpl.Fields)
	}
	var total int64
	for i, p := range v.Products {
		row := Product{N: i + 1, Name: p.Name, Qty: Quantity(p.Quantity), Unit: d.T.Or("unit."+p.Unit, p.Unit),
			Price: Money(p.Price, ""), Amount: Money(p.Amount, "")}
		keys := make([]string, 0, len(p.Values))
		for k := range p.Values {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, func(a, b string) int {
			if ra, rb := rank(a), rank(b); ra != rb {
				return ra - rb
			}
			return strings.Compare(a, b)
		})
		for _, k := range keys {
			f := tpl.FieldByKey(k)
			label, text := k, anyText(p.Values[k])
			if f != nil {
				label, text = f.Name.In(d.Lang), d.value(f, text)
			}
			row.Extra = append(row.Extra, Term{Label: label, Value: text})
		}
		if p.DeliveryAt != nil {
			row.Extra = append(row.Extra, Term{Label: d.T["deliveryAt"], Value: Date(*p.DeliveryAt)})
		}
		total += p.Amount
		d.Products = append(d.Products, row)
	}
	d.ProductsTotal = Money(total, v.Currency)
}

// event describes one line of the audit trail.
func (d *Doc) event(e *signflow.AuditEvent) Event {
	out := Event{At: Time(e.At), Label: d.T.Or("event."+e.Type, e.Type), ActorIN: e.ActorIN, IP: e.IP, UserAgent: e.UserAgent,
		Code: e.Type}
	switch {
	case e.Method == signflow.ConfirmAdmin:
		out.Actor = d.T["administrator"]
	case e.ActorIN == "":
		out.Actor = d.T["system"]
	default:
		out.Actor = e.ActorIN
		for _, p := range d.Parties {
			if p.IN == e.ActorIN {
				out.Actor = p.Role
			}
		}
		for _, p := range d.Witnesses {
			if p.IN == e.ActorIN {
				out.Actor = p.Role + " (" + p.Name + ")"
			}
		}
	}
	if e.Method != "" {
		out.Method = d.T.Or("method."+e.Method, e.Method)
	}
	return out
}
