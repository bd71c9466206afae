package console

import (
	"fmt"
	"testing"
	"time"

	"contracts/server/i18n"
	"contracts/signflow"
)

// The chart's bars stand on its base inside their tracks, the busiest day
// filling its track; a date is written under today and each week before,
// and the drawing reaches past the last bar by its right margin.
func TestChartLayout(t *testing.T) {
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	d := &pageData{T: i18n.Console.For("en")}
	ch := chartOf(map[string]int{"2026-11-22": 4, "2026-11-21": 1, "2026-10-01": 9}, now, d)
	if len(ch.Bars) != signflow.StatsDays || ch.Max != 4 || ch.Width != ch.Right+chartRight {
		t.Fatalf("%d bars, max %d, width %d, right %d", len(ch.Bars), ch.Max, ch.Width, ch.Right)
	}
	for _, b := range ch.Bars {
		if b.Y < ch.Top || b.Y+b.H != ch.Base || b.X < chartLeft || b.X+b.W > ch.Right {
			t.Errorf("bar of %s at %d,%d %dx%d", b.Day, b.X, b.Y, b.W, b.H)
		}
	}
	if last := ch.Bars[len(ch.Bars)-1]; last.Day != "2026-11-22" || last.Y != ch.Top || last.Title != "22.11: 4" {
		t.Errorf("today's bar: %+v", last)
	}
	if one := ch.Bars[len(ch.Bars)-2]; one.H != (ch.Base-ch.Top)/4 {
		t.Errorf("a day of 1: height %d", one.H)
	}
	var dates []string
	for _, tk := range ch.Ticks {
		dates = append(dates, tk.Text)
	}
	if got := fmt.Sprint(dates); got != "[25.10 01.11 08.11 15.11 22.11]" {
		t.Errorf("dates %s", got)
	}
	if ch.Summary != "Created in 30 days: 5; on the busiest day: 4." {
		t.Errorf("summary %q", ch.Summary)
	}
}
