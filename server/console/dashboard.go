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
	// FailedMore counts the failed deliveries beyond those listed.
	FailedMore int
}

type statusCount struct {
	Status, Label, Class, URL string
	N                         int
}

// chart is the SVG bar chart of contracts created per day.
type chart struct {
	Width, Height, Base, Max int
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
		v.ByStatus = append(v.ByStatus, statusCount{Status: st, Label: d.T.Or("status."+st, st), Class: strings.ToLower(st),
			URL: "/console/contracts?status=" + st, N: n})
	}
	v.Chart = chartOf(stats.PerDay, h.svc.Now(), d)
	failed, err := h.svc.Deliveries(signflow.DeliveryFilter{Status: signflow.DeliveryFailed})
	if err != nil {
		return err
	}
	newestDeliveriesFirst(failed)
	for i, f := range failed {
		if i == dashboardFailed {
			v.FailedMore = len(failed) - i
			break
		}
		v.Failed = append(v.Failed, deliveryOf(f, d))
	}
	d.Page = v
	return h.render(c, http.StatusOK, "dashboard", d)
}

// chartOf lays out one bar per day of the last signflow.StatsDays days,
// today last, scaled to the busiest day.
func chartOf(perDay map[string]int, now time.Time, d *pageData) chart {
	const barW, gap, left = 16, 4, 20
	const w, h, base = left + signflow.StatsDays*(barW+gap), 180, 150
	ch := chart{Width: w, Height: h, Base: base, Max: 1, BgH: base - 14, TickY: base + 20}
	days := make([]string, signflow.StatsDays)
	total := 0
	for i := range days {
		days[i] = signflow.Day(now.UTC().AddDate(0, 0, i+1-signflow.StatsDays))
		ch.Max = max(ch.Max, perDay[days[i]])
		total += perDay[days[i]]
	}
	for i, day := range days {
		n := perDay[day]
		bh := n * (base - 10) / ch.Max
		if n > 0 {
			bh = max(bh, 2)
		}
		x := left + i*(barW+gap)
		ch.Bars = append(ch.Bars, bar{X: x, Y: base - bh, W: barW, H: bh, N: n, Day: day,
			Title: d.T.F("chartBar", "date", shortDate(day), "n", strconv.Itoa(n))})
		if (len(days)-1-i)%7 == 0 { // today, and each week before it
			ch.Ticks = append(ch.Ticks, tick{X: x + barW/2, Text: shortDate(day)})
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
