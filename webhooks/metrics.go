package webhooks

import "github.com/prometheus/client_golang/prometheus"

// metrics are the pool's Prometheus series.
type metrics struct {
	deliveries *prometheus.CounterVec
	duration   prometheus.Histogram
	depth      prometheus.Gauge
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		deliveries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "contracts_webhook_deliveries_total",
			Help: "Webhook attempts by event and outcome: delivered, retry (failed, to be tried again) or failed (final)."},
			[]string{"event", "outcome"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "contracts_webhook_attempt_duration_seconds",
			Help: "Duration of webhook attempts, from the request to the answer or the error.", Buckets: prometheus.DefBuckets}),
		depth: prometheus.NewGauge(prometheus.GaugeOpts{Name: "contracts_webhook_queue_depth",
			Help: "PENDING webhook deliveries in the outbox, of every process sharing it: due, in flight or waiting for a retry (counted up to 4096), as this process's last claim saw them."}),
	}
	if reg != nil {
		for _, c := range []prometheus.Collector{m.deliveries, m.duration, m.depth} {
			if err := reg.Register(c); err != nil {
				return nil, err
			}
		}
	}
	return m, nil
}
