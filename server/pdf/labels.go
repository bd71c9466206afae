package pdf

import "fmt"

// labels are the fixed words of the document in one language.
type labels struct {
	number, date, status                   string
	parties                                string
	pinfl, tin, passport, address          string
	terms, details                         string
	products, no, name, unit, qty          string
	price, amount, total                   string
	payment, contractPrice, initialPayment string
	schedule, dueDate, delivery, witnesses string
	signatures, party, signer, method, at  string
	audit, event, actor, ip, userAgent     string
	hash, verify                           string
	// page formats the footer: page n of m.
	page func(n, m int) string
	// states translates contract and signature statuses and confirmation
	// methods (signing methods and the cabinet login); codes missing from
	// it are printed as they are.
	states map[string]string
}

var uzLabels = labels{
	number: "Shartnoma raqami", date: "Sana", status: "Holati",
	parties: "Tomonlar",
	pinfl:   "JShShIR", tin: "STIR", passport: "Pasport", address: "Manzil",
	terms: "Shartnoma shartlari", details: "Shartnoma maʼlumotlari",
	products: "Mahsulotlar", no: "№", name: "Nomi", unit: "Birlik", qty: "Miqdori",
	price: "Narxi", amount: "Summa", total: "Jami",
	payment: "Toʻlov shartlari", contractPrice: "Shartnoma summasi", initialPayment: "Boshlangʻich toʻlov",
	schedule: "Toʻlov jadvali", dueDate: "Toʻlov sanasi", delivery: "Yetkazib berish sanasi", witnesses: "Guvohlar",
	signatures: "Imzolar", party: "Tomon", signer: "Imzolovchi", method: "Usul", at: "Vaqt",
	audit: "Harakatlar jurnali", event: "Hodisa", actor: "Ishtirokchi", ip: "IP manzil", userAgent: "Brauzer",
	hash: "Hujjatning SHA-256 xeshi", verify: "Hujjatni tekshirish uchun QR kodni skanerlang",
	page: func(n, m int) string { return fmt.Sprintf("sahifa %d / %d", n, m) },
	states: map[string]string{
		"CREATED": "Yaratildi", "SIGNED_BY_SELLER": "Sotuvchi imzoladi", "SIGNED_BY_BUYER": "Xaridor imzoladi",
		"ACTIVE": "Amalda", "COMPLETED": "Bajarildi", "PENDING": "Kutilmoqda", "ACCEPTED": "Imzolandi",
		"REJECTED": "Rad etildi", "CANCELLED": "Bekor qilindi",
		"OTP_SMS": "SMS kod", "MY_ID": "MyID", "ABLE_ID": "AbleID", "E_IMZO": "E-IMZO", "CABINET_LOGIN": "Kabinet (SMS kod bilan kirish)",
	},
}

var ruLabels = labels{
	number: "Номер договора", date: "Дата", status: "Статус",
	parties: "Стороны",
	pinfl:   "ПИНФЛ", tin: "ИНН", passport: "Паспорт", address: "Адрес",
	terms: "Условия договора", details: "Реквизиты договора",
	products: "Товары", no: "№", name: "Наименование", unit: "Ед. изм.", qty: "Кол-во",
	price: "Цена", amount: "Сумма", total: "Итого",
	payment: "Условия оплаты", contractPrice: "Сумма договора", initialPayment: "Первоначальный взнос",
	schedule: "График платежей", dueDate: "Дата платежа", delivery: "Дата поставки", witnesses: "Свидетели",
	signatures: "Подписи", party: "Сторона", signer: "Подписант", method: "Способ", at: "Время",
	audit: "Журнал действий", event: "Событие", actor: "Участник", ip: "IP-адрес", userAgent: "Браузер",
	hash: "SHA-256 хеш документа", verify: "Отсканируйте QR-код, чтобы проверить документ",
	page: func(n, m int) string { return fmt.Sprintf("страница %d из %d", n, m) },
	states: map[string]string{
		"CREATED": "Создан", "SIGNED_BY_SELLER": "Подписан продавцом", "SIGNED_BY_BUYER": "Подписан покупателем",
		"ACTIVE": "Действует", "COMPLETED": "Исполнен", "PENDING": "Ожидает", "ACCEPTED": "Подписано",
		"REJECTED": "Отклонено", "CANCELLED": "Отменено",
		"OTP_SMS": "SMS-код", "MY_ID": "MyID", "ABLE_ID": "AbleID", "E_IMZO": "E-IMZO", "CABINET_LOGIN": "Кабинет (вход по SMS-коду)",
	},
}

var enLabels = labels{
	number: "Contract number", date: "Date", status: "Status",
	parties: "Parties",
	pinfl:   "PINFL", tin: "TIN", passport: "Passport", address: "Address",
	terms: "Terms", details: "Contract details",
	products: "Products", no: "#", name: "Name", unit: "Unit", qty: "Qty",
	price: "Price", amount: "Amount", total: "Total",
	payment: "Payment terms", contractPrice: "Contract price", initialPayment: "Initial payment",
	schedule: "Payment schedule", dueDate: "Due date", delivery: "Delivery date", witnesses: "Witnesses",
	signatures: "Signatures", party: "Party", signer: "Signer", method: "Method", at: "Time",
	audit: "Audit trail", event: "Event", actor: "Actor", ip: "IP address", userAgent: "User agent",
	hash: "Document SHA-256", verify: "Scan the QR code to verify the document",
	page: func(n, m int) string { return fmt.Sprintf("page %d of %d", n, m) },
	states: map[string]string{
		"CREATED": "Created", "SIGNED_BY_SELLER": "Signed by seller", "SIGNED_BY_BUYER": "Signed by buyer",
		"ACTIVE": "Active", "COMPLETED": "Completed", "PENDING": "Pending", "ACCEPTED": "Signed",
		"REJECTED": "Rejected", "CANCELLED": "Cancelled",
		"OTP_SMS": "SMS code", "MY_ID": "MyID", "ABLE_ID": "AbleID", "E_IMZO": "E-IMZO", "CABINET_LOGIN": "Cabinet (SMS login code)",
	},
}

// labelsFor returns the labels of lang; an unknown language gets Uzbek.
func labelsFor(lang string) *labels {
	switch lang {
	case "ru":
		return &ruLabels
	case "en":
		return &enLabels
	default:
		return &uzLabels
	}
}

// state translates a status or method code, keeping unknown codes as they are.
func (l *labels) state(code string) string {
	if s, ok := l.states[code]; ok {
		return s
	}
	return code
}
