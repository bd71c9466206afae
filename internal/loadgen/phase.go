package loadgen

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Result is the measurement of one route (or baseline).
type Result struct {
	Name         string
	Requests     int // answered with the expected status
	Errors       int // transport errors and unexpected statuses
	ServerErrors int // 5xx answers, counted in Errors too
	Elapsed      time.Duration
	P50, P99     time.Duration
	PeakRSS      uint64 // highest VmRSS of the serving process during the run, bytes
	PeakAnon     uint64 // highest RssAnon (VmRSS less the file pages of the bbolt mmap), bytes
	FirstError   string
}

// Rate is the throughput in successful requests per second.
func (r Result) Rate() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// phase is one route under load: each call of op makes one request.
type phase struct {
	name string
	// op performs request number n and reports its outcome: ok, and for a
	// failure whether the server answered 5xx and a description.
	op func(ctx context.Context, n int) (ok, server5xx bool, failure string)
	// wrk, when set, is the request wrk sends when it drives the phase.
	wrk *wrkRequest
}

// run drives p with cfg.Clients workers: first a short warm-up whose
// requests are not measured, then until cfg.Duration has passed or
// cfg.MaxRequests requests were made, whichever comes first.
func run(ctx context.Context, cfg Config, p phase, rss *rssSampler) Result {
	if cfg.Warmup > 0 {
		loop(ctx, cfg.Clients, cfg.Warmup, cfg.MaxRequests, p, nil)
	}
	t := &tally{}
	t.slice(ctx, cfg.Clients, cfg.Duration, cfg.MaxRequests, p, rss)
	return t.result(p.name)
}

// runPair measures a route and its baseline in alternating slices, rounds
// of each, so that whatever else the machine does in the meantime weighs on
// both alike. Each gets cfg.Duration (and cfg.MaxRequests) in all.
func runPair(ctx context.Context, cfg Config, a, b phase, rssA, rssB *rssSampler, rounds int) (Result, Result) {
	if cfg.Warmup > 0 {
		loop(ctx, cfg.Clients, cfg.Warmup, cfg.MaxRequests, a, nil)
		loop(ctx, cfg.Clients, cfg.Warmup, cfg.MaxRequests, b, nil)
	}
	if cfg.Wrk != "" && a.wrk != nil && b.wrk != nil {
		return wrkPair(ctx, cfg, a, b, rssA, rssB)
	}
	rounds = max(rounds, 1)
	d, n := cfg.Duration/time.Duration(rounds), max(cfg.MaxRequests/rounds, 1)
	ta, tb := &tally{}, &tally{}
	for i := 0; i < rounds && ctx.Err() == nil; i++ {
		ta.slice(ctx, cfg.Clients, d, n, a, rssA)
		tb.slice(ctx, cfg.Clients, d, n, b, rssB)
	}
	return ta.result(a.name), tb.result(b.name)
}

// tally accumulates the measured slices of one route.
type tally struct {
	lat     latencies
	errs    int
	fives   int
	elapsed time.Duration
	first   string
	peak    uint64
	anon    uint64
}

// slice runs p for d (at most limit requests) and adds the outcome.
func (t *tally) slice(ctx context.Context, clients int, d time.Duration, limit int, p phase, rss *rssSampler) {
	if rss != nil {
		rss.resetPeak()
	}
	r := loop(ctx, clients, d, limit, p, &t.lat)
	t.errs += r.Errors
	t.fives += r.ServerErrors
	t.elapsed += r.Elapsed
	if t.first == "" {
		t.first = r.FirstError
	}
	if rss != nil {
		rss.sample()
		t.peak = max(t.peak, rss.peak.Load())
		t.anon = max(t.anon, rss.anonPeak.Load())
	}
}

func (t *tally) result(name string) Result {
	return Result{Name: name, Requests: len(t.lat.all), Errors: t.errs, ServerErrors: t.fives, Elapsed: t.elapsed,
		P50: percentile(t.lat.all, 0.50), P99: percentile(t.lat.all, 0.99), PeakRSS: t.peak, PeakAnon: t.anon, FirstError: t.first}
}

// latencies collects the durations of good requests from every worker.
type latencies struct {
	mu  sync.Mutex
	all []time.Duration
}

func (l *latencies) add(d []time.Duration) {
	l.mu.Lock()
	l.all = append(l.all, d...)
	l.mu.Unlock()
}

// loop makes requests from clients workers for d, at most limit in all, and
// adds the durations of the good ones to lat (nil: a warm-up).
func loop(ctx context.Context, clients int, d time.Duration, limit int, p phase, lat *latencies) Result {
	var (
		next, errs, fives atomic.Int64
		firstErr          atomic.Value
		wg                sync.WaitGroup
	)
	deadline := time.Now().Add(d)
	start := time.Now()
	for w := 0; w < clients; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for ctx.Err() == nil && time.Now().Before(deadline) {
				n := int(next.Add(1))
				if n > limit {
					break
				}
				t0 := time.Now()
				ok, five, failure := p.op(ctx, n)
				took := time.Since(t0)
				if !ok {
					errs.Add(1)
					if five {
						fives.Add(1)
					}
					firstErr.CompareAndSwap(nil, failure)
					continue
				}
				if lat != nil {
					mine = append(mine, took)
				}
			}
			if lat != nil {
				lat.add(mine)
			}
		}()
	}
	wg.Wait()
	res := Result{Elapsed: time.Since(start), Errors: int(errs.Load()), ServerErrors: int(fives.Load())}
	if s, ok := firstErr.Load().(string); ok {
		res.FirstError = s
	}
	return res
}

// percentile sorts d in place and returns the q-quantile (nearest rank).
func percentile(d []time.Duration, q float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	if !slices.IsSorted(d) {
		slices.Sort(d)
	}
	i := int(q*float64(len(d))+0.999999) - 1
	return d[min(max(i, 0), len(d)-1)]
}

// httpOp makes an op of a request builder: the answer must have status
// want; keep, when set, gets the body of each good answer.
func httpOp(client *http.Client, want int, build func(n int) (*http.Request, error), keep func(body []byte)) func(context.Context, int) (bool, bool, string) {
	return func(ctx context.Context, n int) (bool, bool, string) {
		req, err := build(n)
		if err != nil {
			return false, false, err.Error()
		}
		resp, err := client.Do(req.WithContext(ctx))
		if err != nil {
			return false, false, err.Error()
		}
		defer resp.Body.Close()
		if resp.StatusCode != want {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			return false, resp.StatusCode >= 500, fmt.Sprintf("%s %s: %d %s", req.Method, req.URL.Path, resp.StatusCode, body)
		}
		if keep == nil {
			_, err = io.Copy(io.Discard, resp.Body)
			return err == nil, false, errString(err)
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return false, false, err.Error()
		}
		keep(body)
		return true, false, ""
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// newClient keeps one connection per worker alive, like wrk's -c.
func newClient(clients int) *http.Client {
	return &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConns: clients * 2,
		MaxIdleConnsPerHost: clients * 2, MaxConnsPerHost: clients * 2, DisableCompression: true, IdleConnTimeout: time.Minute}}
}

// wrkPair measures a and b as the shared bench kit's ratio.sh does: wrk
// for the whole duration on each in turn, twice.
func wrkPair(ctx context.Context, cfg Config, a, b phase, rssA, rssB *rssSampler) (Result, Result) {
	ra, rb := Result{Name: a.name}, Result{Name: b.name}
	for i := 0; i < 2 && ctx.Err() == nil; i++ {
		for _, s := range []struct {
			p   phase
			rss *rssSampler
			out *Result
		}{{a, rssA, &ra}, {b, rssB, &rb}} {
			if s.rss != nil {
				s.rss.resetPeak()
			}
			res, err := wrkSlice(ctx, cfg.Wrk, cfg.Clients, cfg.Duration, s.p.wrk)
			if err != nil {
				s.out.Errors++
				s.out.FirstError = err.Error()
				continue
			}
			s.out.Requests += res.Requests
			s.out.Errors += res.Errors
			s.out.Elapsed += res.Elapsed
			s.out.P50 = max(s.out.P50, res.P50)
			s.out.P99 = max(s.out.P99, res.P99)
			if s.out.FirstError == "" {
				s.out.FirstError = res.FirstError
			}
			if s.rss != nil {
				s.rss.sample()
				s.out.PeakRSS = max(s.out.PeakRSS, s.rss.peak.Load())
				s.out.PeakAnon = max(s.out.PeakAnon, s.rss.anonPeak.Load())
			}
		}
	}
	return ra, rb
}
