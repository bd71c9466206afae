package appliance

import (
	"io"
	"time"

	"contracts/internal/config"

	"github.com/rs/zerolog"
)

// newLogger returns a JSON logger, or a console one when asked.
func newLogger(cfg config.LogConfig, w io.Writer) zerolog.Logger {
	level, err := zerolog.ParseLevel(cfg.Level)
	if err != nil {
		level = zerolog.InfoLevel
	}
	if cfg.Format == "console" {
		w = zerolog.ConsoleWriter{Out: w, TimeFormat: time.RFC3339}
	}
	return zerolog.New(w).Level(level).With().Timestamp().Logger()
}
