package pdf

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"
)

// Names that exercise the font: Uzbek Latin with U+02BB and U+2018, and
// Cyrillic.
const (
	sellerName  = "«Gʻalaba Oʻzbek Savdo» MChJ"
	buyerName   = "Иванов Пётр Сергеевич"
	witnessName = "G‘ulom To‘xtayev"
)

var sampleBodies = map[string]string{
	"uz": "Sotuvchi Xaridorga mahsulotlarni ushbu shartnomada koʻrsatilgan miqdor va narxda topshirish, Xaridor esa ularni qabul qilib, toʻlovni jadval boʻyicha amalga oshirish majburiyatini oladi.",
	"ru": "Продавец обязуется передать Покупателю товары в количестве и по цене, указанным в настоящем договоре, а Покупатель обязуется принять их и оплатить по графику платежей.",
	"en": "The Seller shall deliver the goods to the Buyer in the quantity and at the price stated in this contract, and the Buyer shall accept them and pay according to the payment schedule.",
}

var sampleTitles = map[string]string{
	"uz": "Oldi-sotdi shartnomasi",
	"ru": "Договор купли-продажи",
	"en": "Sales contract",
}

var sampleRoles = map[string][2]string{
	"uz": {"Sotuvchi", "Xaridor"},
	"ru": {"Продавец", "Покупатель"},
	"en": {"Seller", "Buyer"},
}

// sampleDocument is a realistic contract in lang with n products and the
// body repeated paragraphs times.
func sampleDocument(lang string, n, paragraphs int) Document {
	at := func(day, hour, minute int) time.Time {
		return time.Date(2026, 3, day, hour, minute, 7, 0, time.FixedZone("UZT", 5*3600))
	}
	signed := at(2, 14, 31)
	roles := sampleRoles[lang]
	body := ""
	for i := range paragraphs {
		body += fmt.Sprintf("%d. %s\n", i+1, sampleBodies[lang])
	}
	products := make([]Product, n)
	var total int64
	for i := range products {
		p := Product{Name: fmt.Sprintf("Product %d", i+1), Unit: "pcs", Quantity: float64(i%4) + 1.5, Price: int64(125000 + 1000*i)}
		p.Amount = int64(float64(p.Price) * p.Quantity)
		products[i] = p
		total += p.Amount
	}
	sum := sha256.Sum256([]byte(lang))
	delivery := at(20, 9, 0)
	return Document{
		Lang: lang, Title: sampleTitles[lang], Number: "2026-000042", Date: at(1, 10, 15), Status: "ACTIVE",
		Seller: Party{Name: sellerName, IN: "302123456", Type: PartyCompany, Address: "Toshkent sh., Amir Temur koʻchasi, 15-uy"},
		Buyer: Party{Name: buyerName, IN: "31204567890123", Type: PartyClient, Passport: "AD1234567",
			Address: "Samarqand sh., Registon koʻchasi, 7-uy, 12-xonadon"},
		SellerLabel: roles[0], BuyerLabel: roles[1],
		Body: body,
		Values: []Value{
			{Label: "Kafolat muddati", Value: "12 oy"},
			{Label: "Yetkazib berish manzili", Value: "Samarqand sh., Registon koʻchasi, 7-uy"},
		},
		Products: products, Currency: "UZS", Price: total, InitialPayment: total / 5,
		Payments: []Payment{
			{Date: at(1, 0, 0).AddDate(0, 1, 0), Amount: total * 2 / 5},
			{Date: at(1, 0, 0).AddDate(0, 2, 0), Amount: total * 2 / 5},
		},
		DeliveryAt: &delivery,
		Witnesses:  []string{witnessName, "Петров Иван Иванович"},
		Signatures: []Signature{
			{Role: roles[0], Name: sellerName, Status: "ACCEPTED", Method: "E_IMZO", At: &signed},
			{Role: roles[1], Name: buyerName, Status: "PENDING", Method: "OTP_SMS"},
		},
		Audit: []AuditRow{
			{At: at(1, 10, 15), Event: "CREATED", Actor: "302123456", IP: "10.0.0.5", UserAgent: "contracts-keyapi/1.0", Method: ""},
			{At: at(2, 14, 30), Event: "OTP_SENT", Actor: "31204567890123", IP: "2001:db8:85a3::8a2e:370:7334",
				UserAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36", Method: "OTP_SMS"},
			{At: signed, Event: "SIGNED", Actor: "302123456", IP: "10.0.0.5", UserAgent: "E-IMZO/4.64", Method: "E_IMZO"},
		},
		Hash:      hex.EncodeToString(sum[:]),
		VerifyURL: "https://contracts.example.uz/verify/2026-000042?h=" + hex.EncodeToString(sum[:8]),
	}
}
