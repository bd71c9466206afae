package signflow

import "encoding/json"

// marshalWebhookBody is json.Marshal(b): every create with a webhook
// target encodes one inside the write transaction, which runs one at a
// time. Bodies with a payment, or with a number not in the plain form
// money takes (-?digits[.digits]), go to json.Marshal.
func marshalWebhookBody(b *WebhookBody) ([]byte, error) {
	if b.Payment != nil || !plainJSONNumber(string(b.Amount)) || b.Balance != "" && !plainJSONNumber(string(b.Balance)) {
		return json.Marshal(b)
	}
	out := make([]byte, 0, 320+len(b.Reason))
	field := func(name, s string) {
		out = append(append(out, name...), ':')
		out = appendJSONString(out, s, true)
	}
	field(`{"event"`, b.Event)
	field(`,"contractId"`, b.ContractID)
	field(`,"contractNumber"`, b.ContractNumber)
	field(`,"status"`, b.Status)
	if b.TemplateID != "" {
		field(`,"templateId"`, b.TemplateID)
	}
	field(`,"buyerIn"`, b.BuyerIN)
	field(`,"sellerIn"`, b.SellerIN)
	field(`,"creatorIn"`, b.CreatorIN)
	field(`,"actorIn"`, b.ActorIN)
	out = append(append(out, `,"amount":`...), b.Amount...)
	field(`,"currency"`, b.Currency)
	field(`,"occurredAt"`, b.OccurredAt)
	if b.Reason != "" {
		field(`,"reason"`, b.Reason)
	}
	if b.Balance != "" {
		out = append(append(out, `,"balance":`...), b.Balance...)
	}
	return append(out, '}'), nil
}

// plainJSONNumber says whether s is -?digits[.digits] with no leading zero, a
// JSON number json.Marshal writes as it is.
func plainJSONNumber(s string) bool {
	if len(s) > 0 && s[0] == '-' {
		s = s[1:]
	}
	i := 0
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 1 && s[0] == '0' {
		return false
	}
	if i == len(s) {
		return true
	}
	if s[i] != '.' || i+1 == len(s) {
		return false
	}
	for _, c := range s[i+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
