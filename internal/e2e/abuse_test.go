package e2e

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The abuse tests attack the whole appliance as a hostile client would: huge
// bodies, slow and idle connections, guessing credentials, codes and
// signing tokens.

// TestAbuseBodyLimit: a body over 1 MiB is 413 on every listener, whether
// it announces its length or streams it in chunks; exactly 1 MiB is read.
func TestAbuseBodyLimit(t *testing.T) {
	dir := t.TempDir()
	in := startInstance(t, dir, filepath.Join(dir, "data"))
	p := provision(t, in, "")
	big := bytes.Repeat([]byte(" "), 1<<20+1)
	bearer := "Bearer " + p.token
	cases := []struct {
		name, url, authName, auth string
	}{
		{"embedded contract", in.embedded + "/v1/contracts", "Authorization", bearer},
		{"embedded token, no credentials", in.embedded + "/v1/auth/token", "", ""},
		{"key contract", in.key + "/v1/contracts", "X-API-Key", p.apiKey},
		{"admin template", in.admin + "/admin/v1/templates", "Authorization", "Bearer " + in.adminToken},
	}
	for _, c := range cases {
		for _, chunked := range []bool{false, true} {
			var body io.Reader = bytes.NewReader(big)
			if chunked {
				body = io.MultiReader(bytes.NewReader(big)) // no length: sent chunked
			}
			req, _ := http.NewRequest("POST", c.url, body)
			req.Header.Set("Content-Type", "application/json")
			if c.authName != "" {
				req.Header.Set(c.authName, c.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatalf("%s (chunked %v): %v", c.name, chunked, err)
			}
			data, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(data), `"code":413`) {
				t.Fatalf("%s (chunked %v): %d %s", c.name, chunked, resp.StatusCode, data)
			}
		}
	}
	// Exactly the limit is read and judged on its content.
	status := call(t, http.DefaultClient, "POST", in.embedded+"/v1/contracts", big[:1<<20], nil, "Authorization", bearer)
	if status != http.StatusBadRequest {
		t.Fatalf("a 1 MiB body of spaces: %d, want 400", status)
	}
	in.stop(t)
}

// TestAbuseSlowConnections: a client that sends its headers one byte a
// second is cut at http.readHeaderTimeout, and an idle keep-alive
// connection is closed after http.idleTimeout.
func TestAbuseSlowConnections(t *testing.T) {
	const readHeader, idle = 2 * time.Second, 1 * time.Second
	dir := t.TempDir()
	in := startInstance(t, dir, filepath.Join(dir, "data"),
		"CONTRACTS_HTTP__READHEADERTIMEOUT="+readHeader.String(), "CONTRACTS_HTTP__IDLETIMEOUT="+idle.String())

	t.Run("slowloris", func(t *testing.T) {
		for _, base := range []string{in.embedded, in.key} {
			conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			closed := watchClose(conn)
			request := []byte("GET /v1/templates HTTP/1.1\r\nHost: x\r\nX-Slow: " + strings.Repeat("a", 20) + "\r\n\r\n")
			sent := 0
		send:
			for sent < len(request) {
				if _, err := conn.Write(request[sent : sent+1]); err != nil {
					break
				}
				sent++
				select {
				case <-closed:
					break send
				case <-time.After(time.Second):
				}
			}
			select {
			case <-closed:
			case <-time.After(readHeader + 3*time.Second):
				t.Fatalf("%s: a slow client is still connected after %v", base, time.Since(start))
			}
			took := time.Since(start)
			conn.Close()
			if sent >= len(request) || took < readHeader-200*time.Millisecond || took > readHeader+2*time.Second {
				t.Fatalf("%s: cut after %v and %d of %d header bytes; readHeaderTimeout is %v", base, took, sent, len(request), readHeader)
			}
			t.Logf("%s: cut after %v, %d header bytes sent", base, took.Round(10*time.Millisecond), sent)
		}
	})

	t.Run("idle keep-alive", func(t *testing.T) {
		conn, err := net.Dial("tcp", strings.TrimPrefix(in.embedded, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.Write([]byte("GET /sdk.js HTTP/1.1\r\nHost: x\r\n\r\n")); err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || resp.Close {
			t.Fatalf("first request: %d, close %v", resp.StatusCode, resp.Close)
		}
		start := time.Now()
		conn.SetReadDeadline(time.Now().Add(idle + 5*time.Second))
		_, err = br.ReadByte()
		took := time.Since(start)
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			t.Fatalf("an idle keep-alive connection was still open after %v", took)
		}
		if took < idle-200*time.Millisecond || took > idle+2*time.Second {
			t.Fatalf("idle connection closed after %v (%v); idleTimeout is %v", took, err, idle)
		}
		t.Logf("idle keep-alive connection closed after %v", took.Round(10*time.Millisecond))
	})
	in.stop(t)
}

// watchClose reads from conn until the peer closes it (or it fails), and
// then closes the channel.
func watchClose(conn net.Conn) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 512)
		for {
			if _, err := conn.Read(buf); err != nil {
				return
			}
		}
	}()
	return done
}

// clientFrom is an HTTP client whose connections come from the loopback
// address ip (127.0.0.0/8 is all loopback), so that per-IP limits see
// another client.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DialContext: d.DialContext}}
}

// answer is one raw response.
type answer struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, client *http.Client, method, url, body string, header ...string) answer {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return answer{resp.StatusCode, resp.Header, string(data)}
}

// wantLimited checks a 429 in the spec's body with a whole Retry-After.
func wantLimited(t *testing.T, a answer, what string) {
	t.Helper()
	secs, err := strconv.Atoi(a.header.Get("Retry-After"))
	if a.status != http.StatusTooManyRequests || err != nil || secs < 1 || !strings.Contains(a.body, `"code":429`) {
		t.Fatalf("%s: %d Retry-After %q %s", what, a.status, a.header.Get("Retry-After"), a.body)
	}
}

// TestAbuseRateLimits: failures at the token endpoint are limited per
// client IP and per app, while a correct secret always gets its token, and
// the signing page's actions per client IP, whatever the token: real,
// wrong or unknown. Each refusal is 429 with Retry-After.
func TestAbuseRateLimits(t *testing.T) {
	const perMinute = 4
	dir := t.TempDir()
	in := startInstance(t, dir, filepath.Join(dir, "data"),
		"CONTRACTS_RATELIMIT__TOKENPERMINUTE="+strconv.Itoa(perMinute), "CONTRACTS_RATELIMIT__OTPPERMINUTE="+strconv.Itoa(perMinute))
	p := provision(t, in, "")
	right := `{"appId":"` + p.appID + `","appSecret":"` + p.appSecret + `"}`

	t.Run("token failures per IP", func(t *testing.T) {
		c := clientFrom("127.0.0.2")
		for i := 0; i < perMinute; i++ { // wrong secrets of unknown apps count too
			if a := do(t, c, "POST", in.embedded+"/v1/auth/token", `{"appId":"guess-`+strconv.Itoa(i)+`","appSecret":"x"}`); a.status != 401 {
				t.Fatalf("guess %d: %d %s", i, a.status, a.body)
			}
		}
		wantLimited(t, do(t, c, "POST", in.embedded+"/v1/auth/token", `{"appId":"guess","appSecret":"x"}`), "a guess past the IP's limit")
		if a := do(t, c, "POST", in.embedded+"/v1/auth/token", right); a.status != 200 {
			t.Fatalf("the right secret from the limited IP: %d %s", a.status, a.body)
		}
		// Another address is not limited by this one.
		if a := do(t, clientFrom("127.0.0.3"), "POST", in.embedded+"/v1/auth/token", `{"appId":"other","appSecret":"x"}`); a.status != 401 {
			t.Fatalf("another IP: %d %s", a.status, a.body)
		}
	})

	t.Run("token failures per app", func(t *testing.T) {
		// Guesses of the app's secret from many addresses exhaust the app's
		// own limit of failures, not the app's access.
		for i := 0; i < perMinute; i++ {
			c := clientFrom("127.0.1." + strconv.Itoa(i+1))
			if a := do(t, c, "POST", in.embedded+"/v1/auth/token", `{"appId":"`+p.appID+`","appSecret":"wrong"}`); a.status != 401 {
				t.Fatalf("guess %d: %d %s", i, a.status, a.body)
			}
		}
		wantLimited(t, do(t, clientFrom("127.0.2.1"), "POST", in.embedded+"/v1/auth/token",
			`{"appId":"`+p.appID+`","appSecret":"wrong"}`), "a guess from a fresh IP after the app's limit")
		if a := do(t, clientFrom("127.0.2.2"), "POST", in.embedded+"/v1/auth/token", right); a.status != 200 {
			t.Fatalf("the right secret after the app's failures: %d %s", a.status, a.body)
		}
	})

	// A session with an SMS code, opened with the token from provisioning.
	var session struct{ URL string }
	mustCall(t, "POST", in.embedded+"/v1/contracts/"+createContract(t, in, p)+"/sign-sessions",
		jsonBody(map[string]string{"signerIn": loadCustomerIN, "lang": "en"}), &session, "Authorization", "Bearer "+p.token)
	token := session.URL[strings.LastIndex(session.URL, "/")+1:]

	t.Run("OTP checks", func(t *testing.T) {
		c := clientFrom("127.0.0.4")
		sign := in.embedded + "/sign/" + token
		if a := do(t, c, "POST", sign+"/code", ""); a.status != 200 {
			t.Fatalf("send code: %d %s", a.status, a.body)
		}
		for i := 1; i < perMinute; i++ {
			if a := do(t, c, "POST", sign+"/confirm", `{"code":"00000"}`); a.status != 400 || a.header.Get("X-Sign-Reason") != "wrong-code" {
				t.Fatalf("wrong code %d: %d %s %s", i, a.status, a.header.Get("X-Sign-Reason"), a.body)
			}
		}
		a := do(t, c, "POST", sign+"/confirm", `{"code":"00000"}`)
		wantLimited(t, a, "a code check past the limit")
		if a.header.Get("X-Sign-Reason") != "rate-limited" {
			t.Fatalf("X-Sign-Reason %q", a.header.Get("X-Sign-Reason"))
		}
	})

	t.Run("sign actions on unknown tokens", func(t *testing.T) {
		// Probing tokens through any action spends the same per-IP budget.
		c := clientFrom("127.0.0.5")
		actions := []string{"confirm", "reject", "code", "confirm"}
		for i, action := range actions[:perMinute] {
			a := do(t, c, "POST", in.embedded+"/sign/"+randomToken()+"/"+action, `{"code":"12345"}`)
			if a.status != 404 || a.header.Get("X-Sign-Reason") != "session-not-found" {
				t.Fatalf("probe %d (%s): %d %s", i, action, a.status, a.body)
			}
		}
		for _, action := range []string{"confirm", "reject", "code"} {
			wantLimited(t, do(t, c, "POST", in.embedded+"/sign/"+randomToken()+"/"+action, `{"code":"12345"}`), action+" past the limit")
		}
	})
	in.stop(t)
}

// createContract creates a contract through the embedded interface.
func createContract(t *testing.T, in *instance, p *provisioned) string {
	t.Helper()
	var c struct{ ID string }
	mustCall(t, "POST", in.embedded+"/v1/contracts", p.contractBody(), &c, "Authorization", "Bearer "+p.token)
	return c.ID
}

// randomToken is shaped like a signing token: 32 random bytes, base64url.
func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// TestAbuseSigningTokens: signing tokens carry 256 random bits, and an
// unknown token is answered exactly alike whether it is random, one
// character away from a real token, or malformed: same status, same body,
// same headers, and no measurable difference in time.
func TestAbuseSigningTokens(t *testing.T) {
	dir := t.TempDir()
	in := startInstance(t, dir, filepath.Join(dir, "data"), "CONTRACTS_RATELIMIT__OTPPERMINUTE=0")
	p := provision(t, in, "")
	var session struct{ URL string }
	mustCall(t, "POST", in.embedded+"/v1/contracts/"+createContract(t, in, p)+"/sign-sessions",
		jsonBody(map[string]string{"signerIn": loadCustomerIN, "lang": "en"}), &session, "Authorization", "Bearer "+p.token)
	token := session.URL[strings.LastIndex(session.URL, "/")+1:]
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(raw) < 32 {
		t.Fatalf("the signing token %q is not 256 bits of base64url (%d bytes, %v)", token, len(raw), err)
	}
	swap := byte('A')
	if token[len(token)-2] == 'A' {
		swap = 'B'
	}
	near := token[:len(token)-2] + string(swap) + token[len(token)-1:]
	unknown := map[string]string{"random": randomToken(), "near miss": near, "prefix": token[:20], "long": token + token,
		"other alphabet": strings.Repeat("!", 43)}
	c := &http.Client{Timeout: 10 * time.Second}

	// The real token works; every unknown one gets the same answer.
	if a := do(t, c, "GET", in.embedded+"/sign/"+token, ""); a.status != 200 {
		t.Fatalf("the real token: %d", a.status)
	}
	var firstPage, firstAPI *answer
	for name, tok := range unknown {
		page := do(t, c, "GET", in.embedded+"/sign/"+tok, "")
		api := do(t, c, "POST", in.embedded+"/sign/"+tok+"/confirm", `{"code":"12345"}`)
		if page.status != 404 || api.status != 404 {
			t.Fatalf("%s token: page %d, confirm %d", name, page.status, api.status)
		}
		api.body = stripTimestamp(api.body)
		if firstPage == nil {
			firstPage, firstAPI = &page, &api
			continue
		}
		if page.body != firstPage.body || api.body != firstAPI.body {
			t.Fatalf("%s token answered differently:\n%s\n%s\n---\n%s\n%s", name, page.body, api.body, firstPage.body, firstAPI.body)
		}
		for _, pair := range [][2]http.Header{{page.header, firstPage.header}, {api.header, firstAPI.header}} {
			if a, b := headerShape(pair[0]), headerShape(pair[1]); a != b {
				t.Fatalf("%s token: headers differ:\n%s\n%s", name, a, b)
			}
		}
	}

	// Timing: a near miss costs what a random token costs (the lookup is by
	// the token's SHA-256), within a generous margin for a shared machine.
	const rounds = 60
	times := map[string][]time.Duration{}
	for i := 0; i < rounds; i++ {
		for _, name := range []string{"random", "near miss"} {
			tok := unknown[name]
			if name == "random" {
				tok = randomToken()
			}
			start := time.Now()
			do(t, c, "POST", in.embedded+"/sign/"+tok+"/confirm", `{"code":"12345"}`)
			times[name] = append(times[name], time.Since(start))
		}
	}
	a, b := median(times["random"]), median(times["near miss"])
	if hi, lo := max(a, b), min(a, b); hi > 2*lo+time.Millisecond {
		t.Fatalf("median answer time of a random token %v, of a near miss %v", a, b)
	}
	t.Logf("unknown tokens: median %v (random) vs %v (one character from a real token) over %d requests each", a, b, rounds)
	in.stop(t)
}

// stripTimestamp removes the error body's timestamp, the one field that
// changes from answer to answer.
func stripTimestamp(body string) string {
	var m map[string]any
	if json.Unmarshal([]byte(body), &m) != nil {
		return body
	}
	delete(m, "timestamp")
	out, _ := json.Marshal(m)
	return string(out)
}

// headerShape lists the header names and values that do not change from
// one request to the next.
func headerShape(h http.Header) string {
	var out []string
	for k, v := range h {
		switch k {
		case "Date", "X-Request-Id", "Content-Length":
			out = append(out, k)
		default:
			out = append(out, k+": "+strings.Join(v, ", "))
		}
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}
