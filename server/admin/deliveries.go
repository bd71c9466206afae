package admin

import (
	"net/http"
	"time"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

func (h *handler) listDeliveries(c echo.Context) error {
	f := signflow.DeliveryFilter{ContractID: c.QueryParam("contractId"), Status: c.QueryParam("status")}
	switch f.Status {
	case "", signflow.DeliveryPending, signflow.DeliveryDelivered, signflow.DeliveryFailed:
	default:
		return signflow.Errorf(signflow.EINVALID, "status: must be PENDING, DELIVERED or FAILED")
	}
	list, err := h.Service.Deliveries(f)
	if err != nil {
		return err
	}
	out := make([]Delivery, 0, len(list))
	for _, d := range list {
		dj := Delivery{ID: d.ID, Event: d.Event, ContractID: d.ContractID, Target: d.Target, TargetName: d.TargetName,
			URL: d.URL, Status: d.Status, Attempts: []DeliveryAttempt{}}
		for _, a := range d.Attempts {
			dj.Attempts = append(dj.Attempts, DeliveryAttempt{At: a.At.UTC().Format(time.RFC3339), StatusCode: a.StatusCode,
				DurationMs: a.DurationMs, Error: a.Error})
		}
		out = append(out, dj)
	}
	return server.JSON(c, http.StatusOK, out)
}

func (h *handler) redeliver(c echo.Context) error {
	if err := h.Service.Redeliver(c.Param("id")); err != nil {
		return err
	}
	if h.Redelivered != nil {
		h.Redelivered()
	}
	return server.JSON(c, http.StatusAccepted, Redelivery{Status: signflow.DeliveryPending})
}
