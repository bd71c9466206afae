package loadgen

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// child is a process the bench started: the appliance or the echo baseline.
type child struct {
	cmd  *exec.Cmd
	done chan struct{}
	err  error
	rss  rssSampler

	mu    sync.Mutex
	addrs map[string]string // listener name -> address
	tail  bytes.Buffer      // last lines of stderr, for error messages
}

// startServer runs "contracts serve" on loopback ports in dataDir, with the
// rate limits off (a load test is one client IP) and the given log level;
// extra is more of its environment (NAME=value).
func startServer(ctx context.Context, cfg Config, dataDir, adminToken string, extra ...string) (*child, error) {
	// Ports are chosen here, not by the server's log: at a log level above
	// info it does not say where it listens.
	addrs := map[string]string{}
	for _, name := range []string{"embedded", "key", "admin"} {
		addr, err := freePort()
		if err != nil {
			return nil, err
		}
		addrs[name] = addr
	}
	args := []string{"serve", "--data-dir", dataDir, "--embedded-listen", addrs["embedded"], "--key-listen", addrs["key"],
		"--admin-listen", addrs["admin"], "--log-level", cfg.LogLevel}
	env := []string{"CONTRACTS_ADMIN__TOKEN=" + adminToken, "CONTRACTS_RATELIMIT__TOKENPERMINUTE=0",
		"CONTRACTS_RATELIMIT__OTPPERMINUTE=0", "CONTRACTS_RATELIMIT__KEYPERSECOND=0", "CONTRACTS_RATELIMIT__APPPERSECOND=0",
		"CONTRACTS_RATELIMIT__SESSIONSPERPARTYPERHOUR=0",
		"CONTRACTS_DATA__BATCHDELAY=" + cfg.BatchDelay.String(), "CONTRACTS_LOG__FORMAT=json"}
	c := &child{cmd: exec.Command(cfg.Binary, args...), done: make(chan struct{}), addrs: addrs}
	c.cmd.Env = append(append(cleanEnv(), env...), extra...)
	c.cmd.SysProcAttr = dieWithParent()
	stderr, err := c.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := c.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cfg.Binary, err)
	}
	go c.readLog(stderr)
	go func() { c.err = c.cmd.Wait(); close(c.done) }()
	c.rss.start(c.cmd.Process.Pid)
	if err := c.waitReady(ctx); err != nil {
		c.kill()
		return nil, err
	}
	return c, nil
}

// readLog keeps a short tail of the server's log for error messages; the
// rest (one access line per request at level info) is dropped.
func (c *child) readLog(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if bytes.Contains(line, []byte(`"message":"request"`)) {
			continue
		}
		c.mu.Lock()
		if c.tail.Len() > 8<<10 {
			c.tail.Reset()
		}
		c.tail.Write(line)
		c.tail.WriteByte('\n')
		c.mu.Unlock()
	}
}

// waitReady waits until the admin listener answers /readyz and the two
// public listeners accept connections.
func (c *child) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(30 * time.Second)
	client := &http.Client{Timeout: time.Second}
	for {
		resp, err := client.Get("http://" + c.addr("admin") + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK && dialable(c.addr("embedded")) && dialable(c.addr("key")) {
				return nil
			}
		}
		select {
		case <-c.done:
			c.mu.Lock()
			defer c.mu.Unlock()
			return fmt.Errorf("the server exited before listening: %v\n%s", c.err, c.tail.String())
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			c.mu.Lock()
			defer c.mu.Unlock()
			return fmt.Errorf("the server was not ready within 30s\n%s", c.tail.String())
		}
	}
}

func dialable(addr string) bool {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err == nil {
		conn.Close()
	}
	return err == nil
}

// freePort finds a loopback port that is free now.
func freePort() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func (c *child) addr(name string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.addrs[name]
}

// stop asks the process to shut down cleanly (SIGTERM) and waits for it.
func (c *child) stop() error {
	c.rss.stop()
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
		return nil
	case <-time.After(30 * time.Second):
		c.kill()
		return fmt.Errorf("the server did not stop within 30s after SIGTERM")
	}
}

func (c *child) kill() {
	c.rss.stop()
	_ = c.cmd.Process.Kill()
	<-c.done
}

// EchoPostgresEnv carries the PostgreSQL URL of the baselines to
// "contracts bench --echo-server".
const EchoPostgresEnv = "CONTRACTS_BENCH_POSTGRES"

// startEcho runs "contracts bench --echo-server": the baselines (baseline.go)
// in their own process, like the appliance, with the /pg routes when
// cfg.Postgres is set. It stops when its stdin closes.
func startEcho(ctx context.Context, cfg Config) (*child, io.Closer, error) {
	c := &child{cmd: exec.Command(cfg.Binary, "bench", "--echo-server", "--batch-delay", cfg.BatchDelay.String()),
		done: make(chan struct{}), addrs: map[string]string{}}
	c.cmd.Env = cleanEnv()
	if cfg.Postgres != "" {
		// in the environment, not the arguments: ps shows those to every user
		c.cmd.Env = append(c.cmd.Env, EchoPostgresEnv+"="+cfg.Postgres)
	}
	c.cmd.SysProcAttr = dieWithParent()
	stdin, err := c.cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	c.cmd.Stderr = &c.tail
	if err := c.cmd.Start(); err != nil {
		return nil, nil, err
	}
	go func() { c.err = c.cmd.Wait(); close(c.done) }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if err != nil || !ok {
		stdin.Close()
		c.kill()
		return nil, nil, fmt.Errorf("echo baseline server: %q %v", line, err)
	}
	c.addrs["echo"] = addr
	c.rss.start(c.cmd.Process.Pid)
	return c, stdin, nil
}

// cleanEnv is this process's environment without CONTRACTS_ variables, so
// that the operator's configuration does not leak into the bench server.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "CONTRACTS_") {
			env = append(env, kv)
		}
	}
	return env
}

// rssSampler reads VmRSS and VmHWM of a process from /proc every 50 ms.
type rssSampler struct {
	pid      int
	peak     atomic.Uint64 // highest VmRSS seen since the last reset, bytes
	hwm      atomic.Uint64 // last VmHWM read, bytes
	last     atomic.Uint64 // last VmRSS read, bytes
	anonPeak atomic.Uint64 // highest RssAnon seen since the last reset (VmRSS less file-backed pages: the bbolt mmap), bytes
	lastAnon atomic.Uint64
	quit     chan struct{}
	stopOnce sync.Once
}

func (s *rssSampler) start(pid int) {
	s.pid, s.quit = pid, make(chan struct{})
	s.sample()
	go func() {
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-s.quit:
				return
			case <-t.C:
				s.sample()
			}
		}
	}()
}

func (s *rssSampler) stop() {
	if s.quit != nil {
		s.stopOnce.Do(func() { s.sample(); close(s.quit) })
	}
}

// resetPeak starts a new measuring window.
func (s *rssSampler) resetPeak() {
	s.peak.Store(s.last.Load())
	s.anonPeak.Store(s.lastAnon.Load())
}

func (s *rssSampler) sample() {
	rss, hwm, anon, ok := readStatus(s.pid)
	if !ok {
		return
	}
	s.last.Store(rss)
	s.lastAnon.Store(anon)
	s.hwm.Store(hwm)
	raise(&s.peak, rss)
	raise(&s.anonPeak, anon)
}

// raise stores v in a when it is larger.
func raise(a *atomic.Uint64, v uint64) {
	for {
		p := a.Load()
		if v <= p || a.CompareAndSwap(p, v) {
			return
		}
	}
}

// readStatus returns VmRSS, VmHWM and RssAnon in bytes from /proc/<pid>/status.
func readStatus(pid int) (rss, hwm, anon uint64, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, 0, 0, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		name, val, found := strings.Cut(line, ":")
		if !found {
			continue
		}
		f := strings.Fields(val)
		if len(f) != 2 || f[1] != "kB" {
			continue
		}
		n, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			continue
		}
		switch name {
		case "VmRSS":
			rss, ok = n<<10, true
		case "VmHWM":
			hwm = n << 10
		case "RssAnon":
			anon = n << 10
		}
	}
	return rss, hwm, anon, ok
}
