package appliance

import (
	"crypto/tls"
	"fmt"

	"contracts/server/tlscert"
)

// tlsConfigs gives each listener that serves HTTPS its TLS configuration,
// by listener name: ACME's for a listener that names domains, its
// certificate files' (re-read when they change) for one with files. With
// ACME on it prepares a.acme, caching certificates in <data.dir>/acme (in
// the database on postgres, so that every node serves one certificate).
func (a *Appliance) tlsConfigs() (map[string]*tls.Config, error) {
	listeners := a.cfg.TLSListeners()
	if a.cfg.ACMEOn() {
		cache, err := a.db.acmeCache()
		if err != nil {
			return nil, err
		}
		if a.acme, err = tlscert.NewACME(a.cfg.ACME.TLSCert(), cache, a.log, listeners...); err != nil {
			return nil, err
		}
	}
	out := map[string]*tls.Config{}
	for _, l := range listeners {
		switch {
		case len(l.Domains) > 0:
			out[l.Name] = a.acme.TLSConfig(l.Name)
		case l.CertFile != "":
			f, err := tlscert.NewFileCert(l.CertFile, l.KeyFile, a.log.With().Str("listener", l.Name).Logger(), a.now)
			if err != nil {
				return nil, fmt.Errorf("%s.tls: %w", l.Name, err)
			}
			out[l.Name] = f.TLSConfig()
		}
	}
	return out, nil
}
