// Package tlscert gives the appliance's listeners their certificates:
// from an ACME CA (Let's Encrypt by default) through autocert, or from
// certificate and key files re-read when they change; and it sends
// Strict-Transport-Security on TLS responses.
//
// A listener with ACME serves ACME.TLSConfig(its name), one with files
// FileCert.TLSConfig(), through http.Server.TLSConfig and
// ServeTLS(ln, "", ""); HSTS goes among its middleware. Validate checks the
// config at load, and DefaultBaseURL fills an unset base URL.
package tlscert
