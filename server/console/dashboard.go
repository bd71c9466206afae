package console

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// dashboardView is the dashboard: counts, the chart and failed deliveries.
type dashboardView struct {
	Total    int
	ByStatus []statusCount
	Chart    chart
	Failed   []deliveryView
	// FailedMore counts the failed deliveries beyond those listed ("" for none).
	FailedMore string
}

type statusCount struct {
	Status, Label, Class, URL string
	N                         int
}

// chart is the SVG bar chart of contracts created per day.
type chart struct {
	Width, Height, Base, Max int
	Right, Top, CountY       int // where the last bar ends, where the tracks begin, the count's line
	BgH, TickY               int // the height of a bar's track, the line of the dates
	Bars                     []bar
	Ticks                    []tick
	Label, Summary           string
}

type bar struct {
	X, Y, W, H int
	Day, Title string
	N          int
}

type tick struct {
	X    int
	Text string
}

// dashboardFailed is how many failed deliveries the dashboard lists.
const dashboardFailed = 5

// dashboard is GET /console.
func (h *handler) dashboard(c echo.Context) error {
	d := h.start(c, "/console", "nav.dashboard")
	stats, err := h.svc.Stats()
	if err != nil {
		return err
	}
	v := &dashboardView{}
	for _, st := range signflow.ContractStatuses {
		n := stats.ByStatus[st]
		v.Total += n
		if n == 0 && legacy(st) {
			continue
		}
		v.ByStatus = append(v.ByStatus, statusCount{Status: st, Label: d.T.Or("status."+st, st), Class: strings.ToLower(st),
			URL: "/console/contracts?status=" + st, N: n})
	}
	v.Chart = chartOf(stats.PerDay, h.svc.Now(), d)
	failed, err := h.deliveryPage(signflow.DeliveryFilter{Status: signflow.DeliveryFailed}, 0, dashboardFailed)
	if err != nil {
		return err
	}
	for _, f := range failed.Rows {
		v.Failed = append(v.Failed, deliveryOf(f, d))
	}
	if more := failed.Total - len(failed.Rows); more > 0 {
		v.FailedMore = strconv.Itoa(more)
		if failed.Cut {
			v.FailedMore += "+"
		}
	}
	d.Page = v
	return h.render(c, http.StatusOK, "dashboard", d)
}

// legacy reports whether st is one of the statuses the state machine
// never produces (SIGNED_BY_SELLER, SIGNED_BY_BUYER): the pages name them
// only where a contract holds one, which none can.
func legacy(st string) bool {
	return st == signflow.StatusSignedBySeller || st == signflow.StatusSignedByBuyer
}

// The chart's layout, in its own units. The margins hold the labels at
// the largest size the page sets them (20 units on a phone, console.css):
// the busiest day's count above the bars, and a date centred under its
// bar, half of the widest beyond the first bar and the last.
const (
	chartBarW, chartGap    = 16, 4
	chartLeft, chartRight  = 20, 24
	chartTop, chartCountY  = 26, 20 // where the bars' tracks begin; the count's line above them
	chartBase, chartHeight = 150, 180
)

// chartOf lays out one bar per day of the last signflow.StatsDays days,
// today last, scaled to the busiest day.
func chartOf(perDay map[string]int, now time.Time, d *pageData) chart {
	right := chartLeft + signflow.StatsDays*(chartBarW+chartGap) - chartGap
	ch := chart{Width: right + chartRight, Height: chartHeight, Base: chartBase, Max: 1, Right: right, Top: chartTop, CountY: chartCountY,
		BgH: chartBase - chartTop, TickY: chartBase + 20}
	days := make([]string, signflow.StatsDays)
	total := 0
	for i := range days {
		days[i] = signflow.Day(now.UTC().AddDate(0, 0, i+1-signflow.StatsDays))
		ch.Max = max(ch.Max, perDay[days[i]])
		total += perDay[days[i]]
	}
	for i, day := range days {
		n := perDay[day]
		bh := n * (chartBase - chartTop) / ch.Max
		if n > 0 {
			bh = max(bh, 2)
		}
		x := chartLeft + i*(chartBarW+chartGap)
		ch.Bars = append(ch.Bars, bar{X: x, Y: chartBase - bh, W: chartBarW, H: bh, N: n, Day: day,
			Title: d.T.F("chartBar", "date", shortDate(day), "n", strconv.Itoa(n))})
		if (len(days)-1-i)%7 == 0 { // today, and each week before it
			ch.Ticks = append(ch.Ticks, tick{X: x + chartBarW/2, Text: shortDate(day)})
		}
	}
	ch.Label = d.T["chartTitle"]
	ch.Summary = d.T.F("chartSummary", "n", strconv.Itoa(total), "max", strconv.Itoa(ch.Max))
	return ch
}

// shortDate prints "2006-01-02" as "02.01".
func shortDate(day string) string {
	if len(day) != 10 {
		return day
	}
	return day[8:10] + "." + day[5:7]
}
