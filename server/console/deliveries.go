package console

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"contracts/server/document"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// deliveriesView is the delivery log, filtered by status or contract.
type deliveriesView struct {
	Status, Contract string
	Statuses         []option
	Rows             []deliveryView
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

// newestDeliveriesFirst orders deliveries by their place in the outbox, newest first.
func newestDeliveriesFirst(list []*signflow.Delivery) {
	slices.SortFunc(list, func(a, b *signflow.Delivery) int {
		switch {
		case a.Seq > b.Seq:
			return -1
		case a.Seq < b.Seq:
			return 1
		}
		return 0
	})
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
	list, err := h.svc.Deliveries(signflow.DeliveryFilter{Status: v.Status, ContractID: v.Contract})
	if err != nil {
		return err
	}
	newestDeliveriesFirst(list)
	for _, dl := range list {
		v.Rows = append(v.Rows, deliveryOf(dl, d))
	}
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
	return c.Redirect(http.StatusSeeOther, "/console/deliveries?"+back.Encode()+"#d-"+c.Param("id"))
}
