package pdf

import "github.com/prometheus/client_golang/prometheus"

// Collectors are the cache's Prometheus series: renders, hits and the
// bytes held, read from Stats when scraped.
func (c *Cache) Collectors() []prometheus.Collector {
	stat := func(f func(CacheStats) float64) func() float64 { return func() float64 { return f(c.Stats()) } }
	return []prometheus.Collector{
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "contracts_pdf_renders_total",
			Help: "Contract PDFs rendered (not served from the PDF cache)."}, stat(func(s CacheStats) float64 { return float64(s.Renders) })),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "contracts_pdf_cache_hits_total",
			Help: "Contract PDFs served from the PDF cache."}, stat(func(s CacheStats) float64 { return float64(s.Hits) })),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "contracts_pdf_cache_bytes",
			Help: "Bytes of PDFs held in the PDF cache."}, stat(func(s CacheStats) float64 { return float64(s.Bytes) })),
	}
}
