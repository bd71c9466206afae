// Package eimzo verifies E-IMZO signatures through an E-IMZO-SERVER
// (the verification server that E-IMZO integrators run on their side).
//
// The signing page has the signer's local E-IMZO client make an attached
// PKCS#7 of the contract's document hash and posts it. Verify then asks the
// server, as the E-IMZO integration guide describes:
//
//	POST {base}/frontend/timestamp/pkcs7       (unless SkipTimestamp)
//	POST {base}/backend/pkcs7/verify/attached
//	Content-Type: text/plain; Host: <site domain>; X-Real-IP: <signer IP>
//	body: the PKCS#7 in base64
//
// and accepts the signature only when the answer has status 1, the signed
// document is the hash, and the signer whose certificate carries signerIN
// (taxpayer number OID 1.2.860.3.16.1.1 for a 9-digit number, personal
// number OID 1.2.860.3.16.1.2 on a personal certificate for a 14-digit one)
// is verified, with a verified chain, valid at signing time and not revoked.
// docs/signing-methods.md has the full contract.
package eimzo

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"contracts/signflow"
)

// Paths of the E-IMZO-SERVER methods used.
const (
	VerifyPath    = "/backend/pkcs7/verify/attached"
	TimestampPath = "/frontend/timestamp/pkcs7"
)

// Subject OIDs of Uzbek qualified certificates.
const (
	OIDTIN   = "1.2.860.3.16.1.1" // taxpayer number of a legal entity (absent on personal certificates)
	OIDPINFL = "1.2.860.3.16.1.2" // personal identification number (PINFL)
)

// Limits on what is sent and read.
const (
	maxPKCS7  = 512 << 10
	maxAnswer = 4 << 20
)

// Certificate is the certificate behind an accepted signature.
type Certificate = signflow.SignerCertificate

// Config is the eimzo section of the configuration.
type Config struct {
	// VerifyURL is the E-IMZO-SERVER base URL (http://10.0.0.5:8080) or the
	// full URL of its verify method (…/backend/pkcs7/verify/attached).
	VerifyURL string
	// Host is sent as the Host header: the site domain the server's E-IMZO
	// key is issued for. Empty: the host of VerifyURL.
	Host    string
	Timeout time.Duration // of each call to the server; required (eimzo.timeout)
	// SkipTimestamp sends the PKCS#7 to verify as it is, without first
	// attaching a timestamp token through the server.
	SkipTimestamp bool
}

// Verifier checks signatures through one E-IMZO-SERVER.
type Verifier struct {
	verifyURL, timestampURL string
	host                    string
	timestamp               bool
	timeout                 time.Duration
	client                  *http.Client
}

// New checks the configuration and returns a Verifier.
func New(cfg Config) (*Verifier, error) {
	u, err := url.Parse(strings.TrimSpace(cfg.VerifyURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("eimzo: verifyURL: must be an absolute http or https URL of the E-IMZO server")
	}
	u.RawQuery, u.Fragment = "", ""
	base := strings.TrimSuffix(strings.TrimRight(u.String(), "/"), VerifyPath)
	if cfg.Timeout <= 0 {
		return nil, fmt.Errorf("eimzo: timeout: must be positive")
	}
	return &Verifier{verifyURL: base + VerifyPath, timestampURL: base + TimestampPath, host: cfg.Host,
		timestamp: !cfg.SkipTimestamp, timeout: cfg.Timeout, client: &http.Client{Timeout: cfg.Timeout}}, nil
}

// Verify checks an attached PKCS#7 (base64) of documentHash by signerIN and
// returns the signer's certificate, with the signature as accepted (and
// time-stamped, unless SkipTimestamp). A bad, unverifiable or foreign
// signature is EINVALID; a failing server is EUNAVAILABLE.
func (v *Verifier) Verify(ctx context.Context, pkcs7Base64, documentHash, signerIN string) (*Certificate, error) {
	p7, err := checkPKCS7(pkcs7Base64)
	if err != nil {
		return nil, err
	}
	if v.timestamp {
		a, err := v.call(ctx, v.timestampURL, p7)
		if err != nil {
			return nil, err
		}
		if a.Status != 1 {
			return nil, notOK(a, "The E-IMZO server could not timestamp the signature")
		}
		if a.PKCS7B64 != "" {
			p7 = a.PKCS7B64
		}
	}
	a, err := v.call(ctx, v.verifyURL, p7)
	if err != nil {
		return nil, err
	}
	if a.Status != 1 {
		return nil, notOK(a, "The E-IMZO server did not accept the signature")
	}
	cert, err := accept(a.PKCS7Info, documentHash, signerIN)
	if err != nil {
		return nil, err
	}
	cert.PKCS7 = p7
	return cert, nil
}

// checkPKCS7 refuses, without a call, what cannot be a PKCS#7 in base64:
// the decoded bytes must open a ContentInfo of type signedData.
func checkPKCS7(s string) (string, error) {
	s = strings.Join(strings.Fields(s), "")
	bad := signflow.Errorf(signflow.EINVALID, "The signature is not an E-IMZO PKCS#7 document in base64; nothing was signed.")
	if s == "" || len(s) > maxPKCS7 {
		return "", bad
	}
	der, err := base64.StdEncoding.DecodeString(s)
	if err != nil || !isSignedData(der) {
		return "", bad
	}
	return s, nil
}

// signedDataOID is the DER of OID 1.2.840.113549.1.7.2.
var signedDataOID = []byte{0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02}

// isSignedData checks the start of a ContentInfo: a SEQUENCE (definite or,
// as E-IMZO writes it, indefinite length) whose first element is the
// signedData OID.
func isSignedData(der []byte) bool {
	if len(der) < 2 || der[0] != 0x30 {
		return false
	}
	i := 2
	if l := der[1]; l > 0x80 {
		i += int(l & 0x7f)
	}
	return len(der) > i && bytes.HasPrefix(der[i:], signedDataOID)
}

// call posts the PKCS#7 to one server method and decodes the answer.
func (v *Verifier) call(ctx context.Context, endpoint, p7 string) (*answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(p7))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "text/plain; charset=utf-8")
	req.Header.Set("Accept", "application/json")
	if v.host != "" {
		// E-IMZO-SERVER checks its API key against the site's host, which
		// depending on its version it reads from any of these.
		req.Host = v.host
		req.Header.Set("X-Forwarded-Host", v.host)
		req.Header.Set("X-Real-Host", v.host)
	}
	if ip := signflow.ActorFrom(ctx).IP; ip != "" {
		req.Header.Set("X-Real-IP", ip)
	}
	resp, err := v.client.Do(req)
	if err != nil {
		return nil, v.unavailable(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, v.unavailable(err)
	}
	switch {
	case resp.StatusCode == http.StatusBadRequest:
		return nil, refused("The E-IMZO server refused the signature", reason(body))
	case resp.StatusCode != http.StatusOK:
		return nil, &Error{cause: fmt.Errorf("%s answered HTTP %d: %s", endpoint, resp.StatusCode, firstLine(body)),
			public: signflow.Errorf(signflow.EUNAVAILABLE, "The E-IMZO server failed (HTTP %d); retry in a few seconds.", resp.StatusCode)}
	}
	var a answer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, &Error{cause: fmt.Errorf("%s: %w", endpoint, err),
			public: signflow.Errorf(signflow.EUNAVAILABLE, "The E-IMZO server gave an unreadable answer; retry in a few seconds.")}
	}
	return &a, nil
}

func (v *Verifier) unavailable(err error) error {
	msg := "The E-IMZO server could not be reached; retry in a few seconds."
	var te interface{ Timeout() bool }
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &te) && te.Timeout() {
		msg = fmt.Sprintf("The E-IMZO server did not answer within %s; retry in a few seconds.", v.timeout)
	}
	return &Error{cause: err, public: signflow.Errorf(signflow.EUNAVAILABLE, "%s", msg)}
}

// notOK reads a status other than 1. −10, −11 and −12 judge the signature
// or its certificate invalid: a refusal, the signer may try another key.
// −1 and −20…−23 say the server could not check (its own failure, or the
// certificate authority out of its reach): nothing is judged, so the
// signer is asked to try again later. Other codes are refusals.
func notOK(a *answer, what string) error {
	if a.Status == -1 || (a.Status <= -20 && a.Status >= -23) {
		return &Error{cause: fmt.Errorf("status %d: %s", a.Status, firstLine([]byte(a.Message))),
			public: signflow.Errorf(signflow.EUNAVAILABLE, "The E-IMZO server could not check the signature now (status %d); nothing was signed, retry in a minute.", a.Status)}
	}
	return refused(what, a.Message)
}

// RetryAfter is how long a signer should wait after a server failure.
const RetryAfter = 30 * time.Second

// refused is an EINVALID with the server's reason, when it gave one.
func refused(what, reason string) error {
	if reason = strings.TrimSpace(reason); reason != "" {
		if len(reason) > 200 {
			reason = reason[:200]
		}
		return signflow.Errorf(signflow.EINVALID, "%s: %s. Nothing was signed.", what, reason)
	}
	return signflow.Errorf(signflow.EINVALID, "%s. Nothing was signed.", what)
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}

// reason is the message of an error answer: its JSON "message", else its first line.
func reason(body []byte) string {
	var a answer
	if json.Unmarshal(body, &a) == nil && a.Message != "" {
		return a.Message
	}
	return firstLine(body)
}

// Error is a server failure: callers see its public *signflow.Error
// (errors.As); Error() adds the cause for the log.
type Error struct {
	public *signflow.Error
	cause  error
}

// Error is the public message followed by the cause.
func (e *Error) Error() string { return e.public.Message + " (" + e.cause.Error() + ")" }

// Unwrap presents the failure as its *signflow.Error.
func (e *Error) Unwrap() error { return e.public }

// RetryAfter is the answer's Retry-After: the server could not check now.
func (e *Error) RetryAfter() time.Duration { return RetryAfter }
