package loadgen

import (
	"fmt"
	"io"
	"strings"
)

// Budgets (docs/operations.md) that one bench run checks.
const (
	ReadBudget  = 0.75 // authenticated GET /v1/contracts/{id} / bare echo
	WriteBudget = 0.75 // POST /v1/contracts / raw bbolt Batch
	RSSBudget   = 100 << 20
)

// Ratio is one budgeted comparison.
type Ratio struct {
	Name   string
	Value  float64
	Budget float64
	Known  bool
}

// OK says whether the ratio meets its budget (unknown ratios pass).
func (r Ratio) OK() bool { return !r.Known || r.Value >= r.Budget }

// Ratios compares the two measured routes with their baselines.
func (r *Report) Ratios() []Ratio {
	pair := func(name, route, base string, budget float64) Ratio {
		a, ok1 := r.result(route)
		b, ok2 := r.result(base)
		out := Ratio{Name: name, Budget: budget}
		if ok1 && ok2 && b.Rate() > 0 {
			out.Value, out.Known = a.Rate()/b.Rate(), true
		}
		return out
	}
	return []Ratio{
		pair("GET /v1/contracts/{id} vs bare echo", nameRead, nameEcho, ReadBudget),
		pair("POST /v1/contracts vs raw bbolt Batch", nameCreate, nameRaw, WriteBudget),
	}
}

// Problems lists every budget the run missed and every correctness failure.
func (r *Report) Problems() []string {
	var out []string
	for _, x := range r.Ratios() {
		if !x.OK() {
			out = append(out, fmt.Sprintf("%s: %.2f, budget ≥ %.2f", x.Name, x.Value, x.Budget))
		}
	}
	for _, x := range r.Results {
		if x.ServerErrors > 0 {
			out = append(out, fmt.Sprintf("%s: %d answers 5xx (first: %s)", x.Name, x.ServerErrors, x.FirstError))
		} else if x.Errors > 0 {
			out = append(out, fmt.Sprintf("%s: %d failed requests (first: %s)", x.Name, x.Errors, x.FirstError))
		}
	}
	if r.HWM > RSSBudget {
		out = append(out, fmt.Sprintf("server VmHWM %s, budget < %s", mib(r.HWM), mib(RSSBudget)))
	}
	if len(r.Missing) > 0 {
		out = append(out, fmt.Sprintf("%d acknowledged contracts missing from the file (first %s)", len(r.Missing), r.Missing[0]))
	}
	return out
}

// Print writes the run's table, ratios, memory and checks.
func (r *Report) Print(w io.Writer) {
	c := r.Config
	fmt.Fprintf(w, "\ncontracts bench — %d clients on loopback, %v per route after %v warm-up (at most %d requests), "+
		"server log level %s, batch delay %v;\neach budgeted route alternates with its baseline in %d slices\n\n",
		c.Clients, c.Duration, c.Warmup, c.MaxRequests, c.LogLevel, c.BatchDelay, c.Rounds)
	fmt.Fprintf(w, "%-44s %9s %7s %9s %10s %10s %20s\n", "route", "requests", "errors", "req/s", "p50", "p99", "peak RSS (anon) MiB")
	fmt.Fprintln(w, strings.Repeat("-", 115))
	for _, x := range r.Results {
		rss := "-"
		if x.PeakRSS > 0 {
			rss = fmt.Sprintf("%.1f (%.1f)", float64(x.PeakRSS)/(1<<20), float64(x.PeakAnon)/(1<<20))
		}
		fmt.Fprintf(w, "%-44s %9d %7d %9.0f %10v %10v %20s\n", x.Name, x.Requests, x.Errors, x.Rate(), round(x.P50), round(x.P99), rss)
	}
	fmt.Fprintln(w)
	for _, x := range r.Ratios() {
		if !x.Known {
			fmt.Fprintf(w, "ratio %-40s not measured in this run\n", x.Name+":")
			continue
		}
		verdict := "ok"
		if !x.OK() {
			verdict = "BELOW BUDGET"
		}
		fmt.Fprintf(w, "ratio %-40s %5.1f%%  (budget ≥ %.0f%%) %s\n", x.Name+":", 100*x.Value, 100*x.Budget, verdict)
	}
	fmt.Fprintf(w, "server memory: VmHWM %s, VmRSS after the load %s (budget < %s); of it at most %s anonymous "+
		"(the rest is the page cache of the %s database file, mapped by bbolt)", mib(r.HWM), mib(r.LastRSS), mib(RSSBudget),
		mib(r.AnonPeak), mib(uint64(r.FileSize)))
	if r.EchoHWM > 0 {
		fmt.Fprintf(w, "; bare echo process VmHWM %s", mib(r.EchoHWM))
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "durability: %d contracts acknowledged, %d in the file after a clean stop, %d acknowledged but missing\n",
		r.Acked, r.Stored, len(r.Missing))
	if r.RecordSize > 0 {
		fmt.Fprintf(w, "stored contract record: %d bytes (the raw bbolt baseline puts %d B, as the shared kit's)\n", r.RecordSize, BaselineValueSize)
	}
	if p := r.Problems(); len(p) > 0 {
		fmt.Fprintln(w, "\nproblems:")
		for _, s := range p {
			fmt.Fprintln(w, "  -", s)
		}
	} else {
		fmt.Fprintln(w, "\nall budgets met; no failed request")
	}
	if r.LoadBefore != "" {
		fmt.Fprintf(w, "load average before the run %s, after %s (other work on the machine lowers every figure)\n", r.LoadBefore, loadavg())
	}
	if c.Keep {
		fmt.Fprintf(w, "data kept in %s\n", r.DataDir)
	}
}

func mib(b uint64) string { return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20)) }
