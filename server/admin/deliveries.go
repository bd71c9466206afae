package admin

import (
	"net/http"
	"time"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

type deliveryJSON struct {
	ID         string        `json:"id"`
	Event      string        `json:"event"`
	ContractID string        `json:"contractId"`
	Target     string        `json:"target"`
	TargetName string        `json:"targetName"`
	URL        string        `json:"url"`
	Status     string        `json:"status"`
	Attempts   []attemptJSON `json:"attempts"`
}

type attemptJSON struct {
	At         string `json:"at"`
	StatusCode int    `json:"statusCode"`
	DurationMs int64  `json:"durationMs"`
	Error      string `json:"error"`
}

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
	out := make([]deliveryJSON, 0, len(list))
	for _, d := range list {
		dj := deliveryJSON{ID: d.ID, Event: d.Event, ContractID: d.ContractID, Target: d.Target, TargetName: d.TargetName,
			URL: d.URL, Status: d.Status, Attempts: []attemptJSON{}}
		for _, a := range d.Attempts {
			dj.Attempts = append(dj.Attempts, attemptJSON{At: a.At.UTC().Format(time.RFC3339), StatusCode: a.StatusCode,
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
	return server.JSON(c, http.StatusAccepted, map[string]string{"status": signflow.DeliveryPending})
}
