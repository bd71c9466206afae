package verify

type labels struct {
	Heading, Number, Status, Party, Name, IN, NotFound string
	Seal                                               string // the seal certificate's fingerprint
	states                                             map[string]string
}

func (l labels) state(s string) string {
	if t, ok := l.states[s]; ok {
		return t
	}
	return s
}

var text = map[string]labels{
	"uz": {Heading: "Shartnomani tekshirish", Number: "Raqam", Status: "Holat", Party: "Tomon", Name: "Nomi", IN: "JSHSHIR / STIR",
		NotFound: "Bu havola boʻyicha shartnoma topilmadi", Seal: "Muhr sertifikati (SHA-256)",
		states: map[string]string{"CREATED": "Yaratildi", "ACTIVE": "Kuchda", "COMPLETED": "Bajarildi", "REJECTED": "Rad etildi",
			"CANCELLED": "Bekor qilindi", "PENDING": "Kutilmoqda", "ACCEPTED": "Imzolandi"}},
	"ru": {Heading: "Проверка договора", Number: "Номер", Status: "Статус", Party: "Сторона", Name: "Наименование", IN: "ПИНФЛ / ИНН",
		NotFound: "Договор по этой ссылке не найден", Seal: "Сертификат печати (SHA-256)",
		states: map[string]string{"CREATED": "Создан", "ACTIVE": "Действует", "COMPLETED": "Исполнен", "REJECTED": "Отклонён",
			"CANCELLED": "Отменён", "PENDING": "Ожидает", "ACCEPTED": "Подписан"}},
	"en": {Heading: "Contract verification", Number: "Number", Status: "Status", Party: "Party", Name: "Name", IN: "Number (PINFL / TIN)",
		NotFound: "No contract matches this link", Seal: "Seal certificate (SHA-256)",
		states: map[string]string{"CREATED": "Created", "ACTIVE": "In force", "COMPLETED": "Completed", "REJECTED": "Rejected",
			"CANCELLED": "Cancelled", "PENDING": "Pending", "ACCEPTED": "Signed"}},
}
