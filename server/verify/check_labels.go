package verify

import "contracts/server/pdf/pades"

// checkLabels are the words of the upload page (GET and POST /verify).
type checkLabels struct {
	Heading, Intro, File, Check, SealedBy, Unchanged, Yes, No    string
	Version, NewerVersion, SealTime, Timestamp, NoFile, TooLarge string
	// Verdicts says what a result means, by its reason ("" is intact).
	Verdicts map[pades.Reason]string
}

var checkText = map[string]checkLabels{
	"uz": {Heading: "Hujjatni tekshirish",
		Intro: "Shartnomaning PDF faylini yuklang: u ushbu xizmat muhri bilan tasdiqlanganmi va shundan beri oʻzgarmaganmi, bilib olasiz.",
		File:  "PDF fayl", Check: "Tekshirish", SealedBy: "Ushbu xizmat muhri", Unchanged: "Oʻzgartirilmagan", Yes: "Ha", No: "Yoʻq",
		Version: "Versiya", NewerVersion: "hozirgi versiya", SealTime: "Muhr vaqti", Timestamp: "Vaqt tamgʻasi",
		NoFile: "Tekshirish uchun PDF faylni tanlang.", TooLarge: "Fayl 10 MiB dan katta.",
		Verdicts: map[pades.Reason]string{
			"":                    "Haqiqiy: ushbu xizmat muhri bilan tasdiqlangan va oʻzgartirilmagan.",
			pades.NotPDF:          "Bu fayl PDF emas.",
			pades.NoSeal:          "Bu PDF faylda ushbu xizmat muhri yoʻq.",
			pades.OtherSigner:     "Bu PDF imzolangan, lekin ushbu xizmat muhri bilan emas.",
			pades.BrokenSignature: "Bu PDF dagi muhr shikastlangan yoki soxta: tekshiruvdan oʻtmaydi.",
			pades.Truncated:       "Fayl toʻliq emas: u muhrlangan qism tugashidan oldin tugaydi.",
			pades.Modified:        "Ushbu xizmat muhri bilan tasdiqlangan, lekin keyin oʻzgartirilgan: mazmuniga ishonmang.",
			pades.BadTimestamp:    "Ushbu xizmat muhri bilan tasdiqlangan, lekin muhrning vaqt tamgʻasi oʻzgartirilgan.",
			pades.Appended:        "Muhrlangan shartnoma haqiqiy, lekin muhrlangandan keyin faylga nimadir qoʻshilgan (masalan, imzo yoki tahrir).",
		}},
	"ru": {Heading: "Проверка документа",
		Intro: "Загрузите PDF договора, чтобы узнать, заверен ли он печатью этого сервиса и не изменён ли с тех пор.",
		File:  "Файл PDF", Check: "Проверить", SealedBy: "Печать этого сервиса", Unchanged: "Не изменён", Yes: "Да", No: "Нет",
		Version: "Версия", NewerVersion: "текущая версия", SealTime: "Время печати", Timestamp: "Метка времени",
		NoFile: "Выберите PDF-файл для проверки.", TooLarge: "Файл больше 10 МиБ.",
		Verdicts: map[pades.Reason]string{
			"":                    "Подлинный: заверен печатью этого сервиса и не изменён.",
			pades.NotPDF:          "Этот файл — не PDF.",
			pades.NoSeal:          "В этом PDF нет печати этого сервиса.",
			pades.OtherSigner:     "Этот PDF подписан, но не печатью этого сервиса.",
			pades.BrokenSignature: "Печать в этом PDF повреждена или подделана: проверку она не проходит.",
			pades.Truncated:       "Файл неполный: он обрывается раньше, чем заканчивается заверенная часть.",
			pades.Modified:        "Заверен печатью этого сервиса, но после этого изменён: содержимому доверять нельзя.",
			pades.BadTimestamp:    "Заверен печатью этого сервиса, но метка времени печати изменена.",
			pades.Appended:        "Заверенный договор подлинный, но после заверения в файл что-то добавлено (например, подпись или правка).",
		}},
	"en": {Heading: "Check a sealed document",
		Intro: "Upload a contract PDF to find out whether this service sealed it and whether it has changed since.",
		File:  "PDF file", Check: "Check", SealedBy: "Sealed by this service", Unchanged: "Unchanged", Yes: "Yes", No: "No",
		Version: "Version", NewerVersion: "current version", SealTime: "Sealed at", Timestamp: "Time-stamp",
		NoFile: "Choose a PDF file to check.", TooLarge: "The file is larger than 10 MiB.",
		Verdicts: map[pades.Reason]string{
			"":                    "Genuine: sealed by this service and unchanged.",
			pades.NotPDF:          "This file is not a PDF.",
			pades.NoSeal:          "This PDF carries no seal of this service.",
			pades.OtherSigner:     "This PDF is signed, but not with this service's seal.",
			pades.BrokenSignature: "The seal in this PDF is damaged or forged: it does not verify.",
			pades.Truncated:       "The file is incomplete: it ends before the sealed part does.",
			pades.Modified:        "Sealed by this service, but changed since: do not trust its content.",
			pades.BadTimestamp:    "Sealed by this service, but the seal's time-stamp was altered.",
			pades.Appended:        "The sealed contract is genuine, but something was added to the file after sealing (for example a later signature or edit).",
		}},
}
