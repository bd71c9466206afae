package appliance

import (
	"io"
	"sync"
	"time"

	"contracts/internal/config"

	"github.com/rs/zerolog"
)

// newLogger returns a JSON logger, or a console one when asked, writing
// through w.
func newLogger(cfg config.LogConfig, w *logWriter) zerolog.Logger {
	level, err := zerolog.ParseLevel(cfg.Level)
	if err != nil {
		level = zerolog.InfoLevel
	}
	if cfg.Format == "console" {
		return zerolog.New(zerolog.ConsoleWriter{Out: w, TimeFormat: time.RFC3339}).Level(level).With().Timestamp().Logger()
	}
	return zerolog.New(w).Level(level).With().Timestamp().Logger()
}

// Lines below warn level wait in the log writer at most logDelay, or
// until logBuffer bytes are waiting.
const (
	logDelay  = 100 * time.Millisecond
	logBuffer = 32 << 10
)

// logWriter gathers the log lines of info level and below (one access
// line per request) and writes them together, at most logDelay after the
// first one waited: a write system call per request cost the read route
// about a twentieth of its throughput (docs/operations.md). A warning or
// an error goes out at once, after the lines before it; so do lines
// without a level (the console format's). Close writes what waits; a
// process killed with SIGKILL loses at most logDelay of info lines.
type logWriter struct {
	mu     sync.Mutex
	out    io.Writer
	buf    []byte
	delay  time.Duration
	timer  *time.Timer // the pending write; nil while nothing waits
	closed bool
}

func newLogWriter(out io.Writer) *logWriter { return &logWriter{out: out, delay: logDelay} }

// Write writes p at once, with what waits before it.
func (w *logWriter) Write(p []byte) (int, error) { return w.WriteLevel(zerolog.NoLevel, p) }

// WriteLevel lets a line below warn level wait for the next write.
func (w *logWriter) WriteLevel(level zerolog.Level, p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	if level >= zerolog.WarnLevel || w.closed || len(w.buf) >= logBuffer {
		return len(p), w.flushLocked()
	}
	if w.timer == nil {
		w.timer = time.AfterFunc(w.delay, w.Flush)
	}
	return len(p), nil
}

// Flush writes what waits.
func (w *logWriter) Flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	_ = w.flushLocked()
}

func (w *logWriter) flushLocked() error {
	if w.timer != nil {
		w.timer.Stop()
		w.timer = nil
	}
	if len(w.buf) == 0 {
		return nil
	}
	_, err := w.out.Write(w.buf)
	if cap(w.buf) > 4*logBuffer {
		w.buf = nil
	} else {
		w.buf = w.buf[:0]
	}
	return err
}

// Close writes what waits; later lines go out at once.
func (w *logWriter) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.closed = true
	_ = w.flushLocked()
}
