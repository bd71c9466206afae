package tlscert

import (
	"crypto/tls"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/rs/zerolog"
)

// CheckEvery is how often, at most, a FileCert looks at its files.
const CheckEvery = 5 * time.Second

// FileCert serves the certificate and key of two PEM files and picks up a
// new pair, without a restart, when the files change: on a handshake at
// least CheckEvery after the last look, it compares the files' identity,
// size and modification time with what it loaded. A pair that does not
// load (a half-written file, a key that does not match) is logged and the
// old certificate kept until the files change again.
type FileCert struct {
	certFile, keyFile string
	now               func() time.Time
	log               zerolog.Logger

	mu      sync.Mutex
	cert    *tls.Certificate
	checked time.Time
	seen    [2]fileState
}

// fileState is what a look at one file saw.
type fileState struct {
	fi  os.FileInfo
	err string
}

func statFile(path string) fileState {
	fi, err := os.Stat(path)
	if err != nil {
		return fileState{err: err.Error()}
	}
	return fileState{fi: fi}
}

func (s fileState) same(o fileState) bool {
	if s.fi == nil || o.fi == nil {
		return s.fi == nil && o.fi == nil && s.err == o.err
	}
	return os.SameFile(s.fi, o.fi) && s.fi.Size() == o.fi.Size() && s.fi.ModTime().Equal(o.fi.ModTime())
}

// NewFileCert loads the pair once, failing when it does not load. now is
// the clock (nil: time.Now).
func NewFileCert(certFile, keyFile string, log zerolog.Logger, now func() time.Time) (*FileCert, error) {
	if now == nil {
		now = time.Now
	}
	f := &FileCert{certFile: certFile, keyFile: keyFile, now: now, log: log}
	f.seen = [2]fileState{statFile(certFile), statFile(keyFile)}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("cannot load certificate %s with key %s: %w", certFile, keyFile, err)
	}
	f.cert, f.checked = &cert, now()
	return f, nil
}

// GetCertificate is the tls.Config hook.
func (f *FileCert) GetCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := f.now()
	if now.Sub(f.checked) < CheckEvery && !now.Before(f.checked) {
		return f.cert, nil
	}
	f.checked = now
	seen := [2]fileState{statFile(f.certFile), statFile(f.keyFile)}
	if seen[0].same(f.seen[0]) && seen[1].same(f.seen[1]) {
		return f.cert, nil
	}
	f.seen = seen
	cert, err := tls.LoadX509KeyPair(f.certFile, f.keyFile)
	if err != nil {
		f.log.Error().Err(err).Str("certFile", f.certFile).Str("keyFile", f.keyFile).
			Msg("new certificate does not load; keeping the old one")
		return f.cert, nil
	}
	f.cert = &cert
	f.log.Info().Str("certFile", f.certFile).Str("subject", cert.Leaf.Subject.String()).
		Time("notAfter", cert.Leaf.NotAfter).Msg("certificate reloaded")
	return f.cert, nil
}

// TLSConfig serves the pair; use it with http.Server.ServeTLS(ln, "", "").
func (f *FileCert) TLSConfig() *tls.Config {
	return &tls.Config{MinVersion: tls.VersionTLS12, GetCertificate: f.GetCertificate}
}
