package pdf

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestFormatMoney(t *testing.T) {
	tests := []struct {
		minor    int64
		currency string
		want     string
	}{
		{150000, "UZS", "1 500.00 UZS"},
		{0, "USD", "0.00 USD"},
		{5, "USD", "0.05 USD"},
		{99999, "RUB", "999.99 RUB"},
		{123456789012, "UZS", "1 234 567 890.12 UZS"},
		{-150001, "UZS", "-1 500.01 UZS"},
		{100000, "", "1 000.00"},
	}
	for _, tt := range tests {
		if got := FormatMoney(tt.minor, tt.currency); got != tt.want {
			t.Errorf("FormatMoney(%d, %q) = %q, want %q", tt.minor, tt.currency, got, tt.want)
		}
	}
}

func TestFormatTimesInUTC(t *testing.T) {
	at := time.Date(2026, 1, 1, 2, 3, 4, 0, time.FixedZone("UZT", 5*3600))
	if got, want := formatDate(at), "2025-12-31"; got != want {
		t.Errorf("formatDate = %q, want %q", got, want)
	}
	if got, want := formatTime(at), "2025-12-31 21:03:04 UTC"; got != want {
		t.Errorf("formatTime = %q, want %q", got, want)
	}
	if got, want := formatQuantity(1.25), "1.25"; got != want {
		t.Errorf("formatQuantity = %q, want %q", got, want)
	}
}

// TestLabelsComplete checks that every language fills every label.
func TestLabelsComplete(t *testing.T) {
	for _, lang := range []string{"uz", "ru", "en"} {
		l := labelsFor(lang)
		v := reflect.ValueOf(l).Elem()
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() == reflect.String && f.String() == "" {
				t.Errorf("%s: label %s is empty", lang, v.Type().Field(i).Name)
			}
		}
		for _, code := range []string{"CREATED", "ACTIVE", "PENDING", "ACCEPTED", "REJECTED", "CANCELLED", "OTP_SMS"} {
			if l.state(code) == code {
				t.Errorf("%s: status %s is not translated", lang, code)
			}
		}
	}
	if labelsFor("de") != &uzLabels {
		t.Error("an unknown language does not fall back to Uzbek")
	}
	if got := uzLabels.page(2, 5); got != "sahifa 2 / 5" {
		t.Errorf("uz footer = %q", got)
	}
	if got := ruLabels.page(2, 5); got != "страница 2 из 5" {
		t.Errorf("ru footer = %q", got)
	}
	if got := enLabels.page(2, 5); got != "page 2 of 5" {
		t.Errorf("en footer = %q", got)
	}
}

func TestWrap(t *testing.T) {
	pdf, err := newPDF()
	if err != nil {
		t.Fatal(err)
	}
	w := &writer{pdf: pdf}
	w.font(false, sizeText)
	const max = 120.0
	long := strings.Repeat("Oʻzbekiston", 10)
	text := "Shartnoma  tuzildi\n\nИванов " + long + " end"
	lines := w.wrap(text, max)
	for _, line := range lines {
		if width := w.width(line); width > max {
			t.Errorf("line %q is %.1f wide, more than %.0f", line, width, max)
		}
	}
	if lines[0] != "Shartnoma tuzildi" || lines[1] != "" {
		t.Errorf("paragraphs not kept: %q", lines[:2])
	}
	if !strings.Contains(strings.Join(lines, ""), long) || !strings.HasSuffix(lines[len(lines)-1], "end") {
		t.Errorf("wrapping lost text: %q", lines)
	}
	if w.err != nil {
		t.Fatal(w.err)
	}
}
