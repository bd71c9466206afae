package server

import (
	"net/http"
	"sync"
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
	// series keeps the counter and histogram of each label set: finding
	// them in the vectors hashes and checks the labels on every request.
	series sync.Map // seriesKey -> *httpSeries
}

type seriesKey struct {
	iface, route string
	status       int
}

type httpSeries struct {
	requests prometheus.Counter
	duration prometheus.Observer
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
	key := seriesKey{iface, route, status}
	v, ok := m.series.Load(key)
	if !ok {
		s := itoa(status)
		v, _ = m.series.LoadOrStore(key, &httpSeries{m.requests.WithLabelValues(iface, route, s), m.duration.WithLabelValues(iface, route, s)})
	}
	hs := v.(*httpSeries)
	hs.requests.Inc()
	hs.duration.Observe(took.Seconds())
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.Registry, promhttp.HandlerOpts{Registry: m.Registry})
}
