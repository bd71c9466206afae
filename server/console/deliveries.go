package console

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"contracts/server/document"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// deliveriesView is a page of the delivery log, filtered by status or
// contract.
type deliveriesView struct {
	Status, Contract string
	Page             int
	Statuses         []option
	Rows             []deliveryView
	Found            string // how many the filter selects
	Cut              string // why the list holds fewer than there are
	Pager            *pager
}

// deliveryView is one delivery with its attempts.
type deliveryView struct {
	ID, Event, ContractID, ContractURL, Target, URL string
	Status, StatusText, StatusClass, Created, Link  string
	Attempts                                        []attemptView
	RedeliverURL                                    string
}

type attemptView struct {
	At, Code, Duration, Error string
	OK                        bool
}

var deliveryStatuses = []string{signflow.DeliveryPending, signflow.DeliveryDelivered, signflow.DeliveryFailed}

// deliveryOf describes a delivery for the page.
func deliveryOf(dl *signflow.Delivery, d *pageData) deliveryView {
	v := deliveryView{ID: dl.ID, Event: dl.Event, ContractID: dl.ContractID, ContractURL: "/console/contracts/" + dl.ContractID,
		Target: dl.TargetName, URL: dl.URL, Status: dl.Status, StatusText: d.T.Or("delivery."+dl.Status, dl.Status),
		StatusClass: strings.ToLower(dl.Status), Created: document.Time(dl.CreatedAt),
		Link: "/console/deliveries?status=" + dl.Status + "#d-" + dl.ID, RedeliverURL: "/console/deliveries/" + dl.ID + "/redeliver"}
	if v.Target == "" {
		v.Target = dl.Target
	}
	for _, a := range dl.Attempts {
		av := attemptView{At: document.Time(a.At), Duration: strconv.FormatInt(a.DurationMs, 10) + " ms", Error: a.Error,
			OK: a.StatusCode >= 200 && a.StatusCode < 300}
		if a.StatusCode > 0 {
			av.Code = strconv.Itoa(a.StatusCode)
		} else {
			av.Code = "—"
		}
		v.Attempts = append(v.Attempts, av)
	}
	return v
}

// How much of the log a page reads. The store reads the failed and the
// pending deliveries (from their indexes) and a contract's in the log's
// order from the oldest, up to a limit, and any other selection by
// walking the whole log in no order; it keeps no cursor from the newest
// end. So a page of an indexed selection reads all of it, up to
// deliveriesReadMax, to show the newest first; and a page of any other
// (the whole log, the delivered) reads up to deliveriesLogRead of it (the
// store's own default), which are not the newest when there are more.
const (
	deliveriesPageSize = 50
	deliveriesReadMax  = 10000
	deliveriesLogRead  = 1000
)

// deliveryList is one page of the deliveries a filter selects, newest
// first.
type deliveryList struct {
	Rows    []*signflow.Delivery
	Total   int  // how many were read
	Cut     bool // more are selected than were read
	Indexed bool // the selection was read from the oldest by an index
}

// deliveryPage reads page (0 the newest) of the deliveries f selects,
// size to a page; a page past the last is the last.
func (h *handler) deliveryPage(f signflow.DeliveryFilter, page, size int) (deliveryList, error) {
	out := deliveryList{Indexed: f.ContractID != "" || f.Status == signflow.DeliveryFailed || f.Status == signflow.DeliveryPending}
	limit := deliveriesLogRead
	if out.Indexed {
		limit = deliveriesReadMax
	}
	f.Limit = limit + 1
	list, err := h.svc.Deliveries(f)
	if err != nil {
		return deliveryList{}, err
	}
	out.Cut = len(list) > limit
	list = list[:min(len(list), limit)]
	slices.SortFunc(list, func(a, b *signflow.Delivery) int { return cmp.Compare(b.Seq, a.Seq) })
	out.Total = len(list)
	from := min(page, max((out.Total-1)/size, 0)) * size
	out.Rows = list[from:min(from+size, out.Total)]
	return out, nil
}

// deliveries is GET /console/deliveries?status=&contract=.
func (h *handler) deliveries(c echo.Context) error {
	d := h.start(c, "/console/deliveries", "nav.deliveries")
	if c.QueryParam("redelivered") != "" {
		d.Notice = d.T["redeliveredNotice"]
	}
	v := &deliveriesView{Status: c.QueryParam("status"), Contract: strings.TrimSpace(c.QueryParam("contract"))}
	if !slices.Contains(deliveryStatuses, v.Status) {
		v.Status = ""
	}
	v.Statuses = append(v.Statuses, option{Value: "", Label: d.T["allStatuses"], Selected: v.Status == ""})
	for _, st := range deliveryStatuses {
		v.Statuses = append(v.Statuses, option{Value: st, Label: d.T["delivery."+st], Selected: st == v.Status})
	}
	v.Page = pageParam(c.QueryParam("page"))
	list, err := h.deliveryPage(signflow.DeliveryFilter{Status: v.Status, ContractID: v.Contract}, v.Page, deliveriesPageSize)
	if err != nil {
		return err
	}
	for _, dl := range list.Rows {
		v.Rows = append(v.Rows, deliveryOf(dl, d))
	}
	v.Found = d.T.F("foundN", "n", strconv.Itoa(list.Total))
	if list.Cut {
		key := "deliveriesLogCut"
		if list.Indexed {
			key = "deliveriesCut"
		}
		v.Found, v.Cut = "", d.T.F(key, "n", strconv.Itoa(list.Total))
	}
	v.Pager = pagerOf(d.T, "/console/deliveries", url.Values{"status": {v.Status}, "contract": {v.Contract}}, v.Page, list.Total, deliveriesPageSize)
	d.Page = v
	return h.render(c, http.StatusOK, "deliveries", d)
}

// redeliver is POST /console/deliveries/{id}/redeliver: the delivery is
// queued again under its id, as POST /admin/v1/deliveries/{id}/redeliver.
func (h *handler) redeliver(c echo.Context) error {
	err := h.svc.Redeliver(c.Param("id"))
	if refused(err) {
		return h.missing(c, h.start(c, "/console/deliveries", "nav.deliveries"), "deliveryMissing")
	} else if err != nil {
		return err
	}
	if h.redelivered != nil {
		h.redelivered()
	}
	back := url.Values{"redelivered": {"1"}}
	if st := c.FormValue("status"); slices.Contains(deliveryStatuses, st) {
		back.Set("status", st)
	}
	if id := strings.TrimSpace(c.FormValue("contract")); id != "" {
		back.Set("contract", id)
	}
	if page := pageParam(c.FormValue("page")); page > 0 {
		back.Set("page", strconv.Itoa(page))
	}
	return c.Redirect(http.StatusSeeOther, "/console/deliveries?"+back.Encode()+"#d-"+c.Param("id"))
}
