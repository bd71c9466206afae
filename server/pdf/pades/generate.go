package pades

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"time"
)

// Names of the generated pair.
const (
	CertName = "seal.crt"
	KeyName  = "seal.key"
)

// generatedBits is the size of a generated RSA key: 3072 bits (secure past
// 2030) costs about 2 ms a signature, well within the time of a download.
const generatedBits = 3072

// Blobs keeps small named files for the generated seal: a directory now,
// the database when several nodes share one (they must then seal with one
// pair, so a store should keep the first pair written).
type Blobs interface {
	// Read returns a blob, or an error wrapping fs.ErrNotExist.
	Read(name string) ([]byte, error)
	// Write stores a blob readable only by this service.
	Write(name string, data []byte) error
}

// Dir is Blobs as files in a directory, written with mode 0600.
type Dir string

// Read reads the file name in the directory.
func (d Dir) Read(name string) ([]byte, error) { return os.ReadFile(filepath.Join(string(d), name)) }

// Write replaces the file name through a temporary file and a rename, so
// that a crash leaves the old file or the new one, never half of one.
func (d Dir) Write(name string, data []byte) error {
	if err := os.MkdirAll(string(d), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(string(d), "."+name+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(string(d), name))
}

// OpenIdentity is the seal of a configuration: the PEM files when both are
// named, otherwise the generated "<serviceName> document seal" kept in b.
func OpenIdentity(certFile, keyFile string, b Blobs, serviceName string) (*Identity, error) {
	switch {
	case certFile != "" && keyFile != "":
		return LoadIdentity(certFile, keyFile)
	case certFile != "" || keyFile != "":
		return nil, errors.New("seal.certFile and seal.keyFile must be set together")
	}
	return GeneratedIdentity(b, serviceName)
}

// GeneratedIdentity loads the self-signed seal kept in b, making and
// storing it on first use. A key without its certificate (a crash between
// the two writes) gets a new certificate; a certificate without its key is
// an error, since documents sealed by it could no longer be matched.
func GeneratedIdentity(b Blobs, serviceName string) (*Identity, error) {
	certPEM, certErr := b.Read(CertName)
	keyPEM, keyErr := b.Read(KeyName)
	for _, err := range []error{certErr, keyErr} {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("seal: %w", err)
		}
	}
	switch {
	case certErr == nil && keyErr == nil:
		return ParseIdentity(certPEM, keyPEM)
	case certErr == nil:
		return nil, fmt.Errorf("seal: %s exists but %s is missing: restore it from a backup, or move %s away to make a new seal", CertName, KeyName, CertName)
	}
	var key *rsa.PrivateKey
	if keyErr == nil {
		signer, err := parseKey(keyPEM)
		if err != nil {
			return nil, err
		}
		k, ok := signer.(*rsa.PrivateKey)
		if !ok {
			return nil, fmt.Errorf("seal: %s is not the RSA key this service generates", KeyName)
		}
		key = k
	} else {
		k, err := rsa.GenerateKey(rand.Reader, generatedBits)
		if err != nil {
			return nil, err
		}
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			return nil, err
		}
		if err := b.Write(KeyName, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})); err != nil {
			return nil, fmt.Errorf("seal: %w", err)
		}
		key = k
	}
	cert, err := selfSigned(key, serviceName+" document seal", serviceName)
	if err != nil {
		return nil, err
	}
	if err := b.Write(CertName, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw})); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	return &Identity{Chain: []*x509.Certificate{cert}, Key: key}, nil
}

// selfSigned makes the seal certificate. Its validity starts in 2000 and
// never ends (RFC 5280's 99991231235959Z): a seal's signing time is the
// contract's last change, which may precede the certificate, and a reader
// checking the certificate at that time must not call it not yet valid.
func selfSigned(key *rsa.PrivateKey, cn, org string) (*x509.Certificate, error) {
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	if err != nil {
		return nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: cn, Organization: []string{org}},
		NotBefore:             time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:              time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, err
	}
	return x509.ParseCertificate(der)
}
