package signflow

// DefaultSMSTexts are the texts sent when configuration replaces none.
func DefaultSMSTexts() SMSTexts {
	return SMSTexts{
		SMSSignCode: {
			"uz": "{number}-sonli shartnomani imzolash kodi: {code}. Uni hech kimga bermang.",
			"ru": "Код {code} для подписания договора № {number}. Никому не сообщайте его.",
			"en": "Code {code} to sign contract No. {number}. Do not share it with anyone.",
		},
		SMSCabinetCode: {
			"uz": "Kabinetga kirish kodi: {code}. Uni hech kimga bermang.",
			"ru": "Код для входа в кабинет: {code}. Никому не сообщайте его.",
			"en": "Your cabinet login code: {code}. Do not share it with anyone.",
		},
		SMSSignLink: {
			"uz": "{number}-sonli shartnomani imzolash: {url}",
			"ru": "Подпишите договор № {number}: {url}",
			"en": "Sign contract No. {number}: {url}",
		},
		SMSCabinetInvite: {
			"uz": "{owner} sizga {number}-sonli shartnomani yubordi. Kabinetda ko'ring va imzolang: {url}",
			"ru": "{owner} направил вам договор № {number}. Посмотрите и подпишите его в кабинете: {url}",
			"en": "{owner} sent you contract No. {number}. Review and sign it in your cabinet: {url}",
		},
		SMSReminder: {
			"uz": "Eslatma: {number}-sonli shartnoma imzoingizni kutmoqda: {url}",
			"ru": "Напоминание: договор № {number} ждёт вашей подписи: {url}",
			"en": "Reminder: contract No. {number} is waiting for your signature: {url}",
		},
		SMSPaymentReminder: {
			"uz": "{number}-sonli shartnoma bo'yicha {date} gacha {amount} to'lash kerak: {url}",
			"ru": "По договору № {number} до {date} нужно оплатить {amount}: {url}",
			"en": "Contract No. {number}: {amount} is due by {date}: {url}",
		},
	}
}
