package loadgen

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// wrkRequest is what wrk sends when it drives a phase, as the shared
// bench kit's ratio.sh does: one request, again and again, or the requests
// of a Lua script (lua, then url is the server's root).
type wrkRequest struct {
	method, url, header string // header: "Name: value" or empty
	body                []byte
	lua                 string
}

// wrkSlice drives r with wrk -t2 -c clients for d (whole seconds, at least
// one) and returns the outcome; its latencies are wrk's percentiles.
func wrkSlice(ctx context.Context, bin string, clients int, d time.Duration, r *wrkRequest) (Result, error) {
	secs := max(int((d+time.Second-1)/time.Second), 1)
	args := []string{"-t2", "-c" + strconv.Itoa(max(clients, 2)), "-d" + strconv.Itoa(secs) + "s", "--latency"}
	if r.header != "" {
		args = append(args, "-H", r.header)
	}
	if r.method != "GET" || r.lua != "" {
		script, err := os.CreateTemp("", "contracts-wrk-*.lua")
		if err != nil {
			return Result{}, err
		}
		defer os.Remove(script.Name())
		if r.lua != "" {
			fmt.Fprint(script, r.lua)
		} else {
			fmt.Fprintf(script, "wrk.method = %q\nwrk.body = %s\nwrk.headers[\"Content-Type\"] = \"application/json\"\n", r.method, luaString(r.body))
		}
		if err := script.Close(); err != nil {
			return Result{}, err
		}
		args = append(args, "-s", filepath.Clean(script.Name()))
	}
	start := time.Now()
	out, err := exec.CommandContext(ctx, bin, append(args, r.url)...).CombinedOutput()
	elapsed := time.Since(start)
	if err != nil {
		return Result{}, fmt.Errorf("wrk: %v: %s", err, out)
	}
	res, err := parseWrk(string(out))
	if err != nil {
		return Result{}, err
	}
	if res.Elapsed == 0 {
		res.Elapsed = elapsed
	}
	return res, nil
}

// luaString quotes b as a Lua long string literal.
func luaString(b []byte) string {
	eq := ""
	for strings.Contains(string(b), "]"+eq+"]") {
		eq += "="
	}
	return "[" + eq + "[" + string(b) + "]" + eq + "]"
}

// parseWrk reads wrk --latency's report: requests answered 2xx/3xx (the
// others and socket errors are errors), the measured time, p50 and p99.
func parseWrk(out string) (Result, error) {
	var res Result
	var total, bad int
	seen := false
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) >= 4 && f[1] == "requests" && f[2] == "in":
			n, err := strconv.Atoi(f[0])
			if err != nil {
				return res, fmt.Errorf("wrk: %q", sc.Text())
			}
			total, seen = n, true
			res.Elapsed, _ = parseWrkDuration(strings.TrimSuffix(f[3], ","))
		case len(f) == 2 && f[0] == "50%":
			res.P50, _ = parseWrkDuration(f[1])
		case len(f) == 2 && f[0] == "99%":
			res.P99, _ = parseWrkDuration(f[1])
		case len(f) >= 5 && f[0] == "Non-2xx":
			n, _ := strconv.Atoi(f[4])
			bad += n
			res.FirstError = "non-2xx or 3xx answers"
		case len(f) >= 3 && f[0] == "Socket" && f[1] == "errors:":
			for i := 2; i+1 < len(f); i += 2 {
				n, _ := strconv.Atoi(strings.TrimSuffix(f[i+1], ","))
				bad += n
			}
			if res.FirstError == "" && bad > 0 {
				res.FirstError = "socket errors"
			}
		}
	}
	if !seen {
		return res, fmt.Errorf("wrk: no request count in %q", out)
	}
	res.Requests, res.Errors = total-min(bad, total), bad
	return res, nil
}

// parseWrkDuration reads wrk's times: 812.00us, 1.20ms, 5.00s, 1.00m.
func parseWrkDuration(s string) (time.Duration, error) {
	for _, u := range []struct {
		suffix string
		unit   time.Duration
	}{{"us", time.Microsecond}, {"ms", time.Millisecond}, {"s", time.Second}, {"m", time.Minute}} {
		if v, ok := strings.CutSuffix(s, u.suffix); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return 0, err
			}
			return time.Duration(f * float64(u.unit)), nil
		}
	}
	return 0, fmt.Errorf("wrk: a time %q", s)
}

// mixLua is the wrk script of ratio.sh's reads and mixed: each request a
// GET of get followed by a random one of ids (or a number below n when ids
// is empty), and with post every tenth request a POST of body to post.
func mixLua(ids []string, get string, n int, post string, body []byte) string {
	var b strings.Builder
	pick := fmt.Sprintf("math.random(0, %d)", n-1)
	if len(ids) > 0 {
		b.WriteString("local ids = {")
		for i, id := range ids {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(id))
		}
		b.WriteString("}\n")
		pick = "ids[math.random(#ids)]"
	}
	fmt.Fprintf(&b, "wrk.headers[\"Content-Type\"] = \"application/json\"\nlocal body = %s\nlocal n = 0\n", luaString(body))
	b.WriteString("request = function()\n  n = n + 1\n")
	if post != "" {
		fmt.Fprintf(&b, "  if n %% 10 == 0 then return wrk.format(\"POST\", %q, nil, body) end\n", post)
	}
	fmt.Fprintf(&b, "  return wrk.format(\"GET\", %q .. %s)\nend\n", get, pick)
	return b.String()
}
