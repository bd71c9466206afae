package appliance

import (
	"strings"
	"testing"
	"time"

	"contracts/internal/config"
	"contracts/internal/testtools"
)

func TestLogWriterGathersInfoLines(t *testing.T) {
	var out testtools.Buffer
	w := newLogWriter(&out)
	w.delay = time.Hour // the test calls Flush itself
	log := newLogger(config.LogConfig{Level: "info", Format: "json"}, w)

	log.Info().Msg("first")
	log.Info().Msg("second")
	if out.String() != "" {
		t.Fatalf("info lines went out at once: %q", out.String())
	}
	w.mu.Lock()
	armed := w.timer != nil
	w.mu.Unlock()
	if !armed {
		t.Fatal("no write is due for the waiting lines")
	}

	log.Warn().Msg("third")
	if got := messages(out.String()); got != "first second third" {
		t.Fatalf("a warning wrote %q, want the waiting lines before it", got)
	}

	log.Info().Msg("fourth")
	w.Flush() // what the timer calls
	if got := messages(out.String()); got != "first second third fourth" {
		t.Fatalf("after the due write: %q", got)
	}

	log.Info().Msg("fifth")
	w.Close()
	log.Info().Msg("sixth")
	if got := messages(out.String()); got != "first second third fourth fifth sixth" {
		t.Fatalf("after Close: %q, want every line out", got)
	}
}

func TestLogWriterWritesWhenFull(t *testing.T) {
	var out testtools.Buffer
	w := newLogWriter(&out)
	w.delay = time.Hour
	log := newLogger(config.LogConfig{Level: "info", Format: "json"}, w)
	long := strings.Repeat("x", 1000)
	n := 0
	for out.String() == "" && n < 2*logBuffer/1000 {
		log.Info().Str("pad", long).Msg("line")
		n++
	}
	if out.String() == "" {
		t.Fatalf("%d lines of 1 KB waited; the writer holds at most %d bytes", n, logBuffer)
	}
	if n < logBuffer/1100 {
		t.Fatalf("written after %d lines of 1 KB, before the buffer was full", n)
	}
	w.Close()
}

// messages lists the message of each JSON line, in order.
func messages(s string) string {
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		if _, rest, ok := strings.Cut(line, `"message":"`); ok {
			msg, _, _ := strings.Cut(rest, `"`)
			out = append(out, msg)
		}
	}
	return strings.Join(out, " ")
}
