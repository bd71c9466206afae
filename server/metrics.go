package server

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics is the process's Prometheus registry with the HTTP series.
type Metrics struct {
	Registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// NewMetrics registers the Go and process collectors and the HTTP series.
func NewMetrics() *Metrics {
	r := prometheus.NewRegistry()
	m := &Metrics{
		Registry: r,
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "contracts_http_requests_total",
			Help: "HTTP requests by interface, route template and status."}, []string{"interface", "route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "contracts_http_request_duration_seconds",
			Help: "HTTP request durations by interface, route template and status.", Buckets: prometheus.DefBuckets},
			[]string{"interface", "route", "status"}),
	}
	r.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), m.requests, m.duration)
	return m
}

func (m *Metrics) observe(iface, route string, status int, took time.Duration) {
	if m == nil {
		return
	}
	s := itoa(status)
	m.requests.WithLabelValues(iface, route, s).Inc()
	m.duration.WithLabelValues(iface, route, s).Observe(took.Seconds())
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry})
}
