package embedded

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"contracts/internal/loadgen"
)

// BenchmarkCreateBatch commits batches of 1, 5 and 20 typical creates, each
// batch one write transaction (the writers wait out a batch delay
// together), and reports what one commit costs: pages written, nodes
// spilled, and the time of the spill and of the writes and syncs. Time per
// op is mostly the delay; these are what it measures.
func BenchmarkCreateBatch(b *testing.B) {
	for _, n := range []int{1, 5, 20} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			e := newEnv(b, 0)
			tok := e.token(e.AppA)
			body := loadgen.ContractBody(e.Template.ID)
			e.DB.Bolt().MaxBatchDelay = 5 * time.Millisecond
			before, txs := e.DB.Bolt().Stats(), writeTxID(b, e)
			b.ReportAllocs()
			for b.Loop() {
				var wg sync.WaitGroup
				for range n {
					wg.Go(func() {
						serve(b, e, createRequest(tok, body))
					})
				}
				wg.Wait()
			}
			stats := e.DB.Bolt().Stats()
			d := stats.Sub(&before)
			commits := float64(writeTxID(b, e) - txs)
			b.ReportMetric(float64(b.N*n)/commits, "creates/commit")
			b.ReportMetric(float64(d.TxStats.GetWrite())/commits, "pages/commit")
			b.ReportMetric(float64(d.TxStats.GetSpill())/commits, "spills/commit")
			b.ReportMetric(float64(d.TxStats.GetSpillTime().Microseconds())/commits, "spill-µs/commit")
			b.ReportMetric(float64(d.TxStats.GetWriteTime().Microseconds())/commits, "write-µs/commit")
		})
	}
}
