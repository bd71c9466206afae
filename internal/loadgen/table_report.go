package loadgen

import (
	"fmt"
	"io"
	"strings"
)

// Problems lists every row below its budget, over the p99 budget or with
// failed requests, and a webhook row whose target received nothing.
func (r *TableReport) Problems() []string {
	var out []string
	for _, x := range r.Rows {
		if x.Skipped != "" {
			continue
		}
		if x.Budget > 0 && x.Ratio() < x.Budget {
			out = append(out, fmt.Sprintf("%s: ratio %.2f, budget ≥ %.2f", x.Work, x.Ratio(), x.Budget))
		}
		if x.App.P99 >= P99Budget {
			out = append(out, fmt.Sprintf("%s: p99 %v, budget < %v", x.Work, round(x.App.P99), P99Budget))
		}
		if x.Key == "webhook" && x.Hooks == 0 {
			out = append(out, x.Work+": the target received no delivery")
		}
		for _, res := range []Result{x.App, x.Base} {
			if res.Errors > 0 {
				out = append(out, fmt.Sprintf("%s: %d failed requests (first: %s)", res.Name, res.Errors, res.FirstError))
			}
		}
	}
	return out
}

// Print writes the table, the kit's command of each row and the problems.
func (r *TableReport) Print(w io.Writer) {
	c := r.Config
	driver := fmt.Sprintf("this process's client, %d connections, %v per side in %d alternating slices", c.Clients, c.Duration, c.Rounds)
	if c.Wrk != "" {
		driver = fmt.Sprintf("wrk -t2 -c%d, %v per run, each side twice, alternating (as ratio.sh)", c.Clients, c.Duration)
	}
	fmt.Fprintf(w, "\ncontracts bench --table — each row on a fresh appliance against the baseline process of the same run;\n%s; "+
		"random reads among %d contracts\n\n", driver, r.Contracts)
	fmt.Fprintf(w, "%-46s %10s %10s %6s %7s %10s %10s\n", "work", "req/s", "baseline", "ratio", "budget", "p99", "base p99")
	fmt.Fprintln(w, strings.Repeat("-", 105))
	for _, x := range r.Rows {
		if x.Skipped != "" {
			fmt.Fprintf(w, "%-46s not measured: %s\n", x.Work, x.Skipped)
			continue
		}
		budget := "-"
		if x.Budget > 0 {
			budget = fmt.Sprintf("≥ %.2f", x.Budget)
		}
		work := x.Work
		if x.Key == "reads" || x.Key == "pgreads" {
			work = strings.Replace(work, "4,000", fmt.Sprint(r.Contracts), 1)
		}
		fmt.Fprintf(w, "%-46s %10.0f %10.0f %6.2f %7s %10v %10v\n", work, x.App.Rate(), x.Base.Rate(), x.Ratio(), budget,
			round(x.App.P99), round(x.Base.P99))
	}
	for _, x := range r.Rows {
		if x.Key == "webhook" && x.Skipped == "" {
			fmt.Fprintf(w, "webhook target: %d deliveries received during the row (%d creates answered in its measured runs, more in warm-up)\n",
				x.Hooks, x.App.Requests)
		}
	}
	for _, x := range r.Rows {
		if x.Writer.Commits > 0 {
			fmt.Fprintf(w, "bbolt writer during %s (its warm-up and the baseline's runs too): %v\n", x.Key, x.Writer)
		}
	}
	fmt.Fprintln(w, "\nthe same rows with the shared kit (../shared/bench/ratio.sh; .ci/ratio-bench builds, starts and provisions a checkout):")
	for _, x := range TableRows {
		fmt.Fprintf(w, "  %-46s %-38s vs %s\n", x.Work, x.Kit, x.Baseline)
	}
	if p := r.Problems(); len(p) > 0 {
		fmt.Fprintln(w, "\nproblems:")
		for _, s := range p {
			fmt.Fprintln(w, "  -", s)
		}
	} else {
		fmt.Fprintln(w, "\nevery measured row within its budget; no failed request")
	}
	if r.LoadBefore != "" {
		fmt.Fprintf(w, "load average before the run %s, after %s (other work on the machine lowers every figure)\n", r.LoadBefore, loadavg())
	}
}
