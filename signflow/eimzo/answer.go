package eimzo

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"contracts/signflow"
)

// answer is what the E-IMZO-SERVER methods return: status 1 is success,
// anything else comes with a message.
type answer struct {
	Status    int        `json:"status"`
	Message   string     `json:"message"`
	PKCS7B64  string     `json:"pkcs7b64"`  // timestamp method
	PKCS7Info *pkcs7Info `json:"pkcs7Info"` // verify method
}

type pkcs7Info struct {
	Signers        []signer `json:"signers"`
	DocumentBase64 string   `json:"documentBase64"`
}

type signer struct {
	SigningTime                   string          `json:"signingTime"`
	Certificate                   []certificate   `json:"certificate"` // [0] the signer's, then the CA chain
	Verified                      bool            `json:"verified"`
	CertificateVerified           bool            `json:"certificateVerified"`
	CertificateValidAtSigningTime bool            `json:"certificateValidAtSigningTime"`
	RevokedStatusInfo             json.RawMessage `json:"revokedStatusInfo"`
	Exception                     json.RawMessage `json:"exception"`
	TimeStampInfo                 *struct {
		Verified bool   `json:"verified"`
		Time     string `json:"time"`
	} `json:"timeStampInfo"`
}

type certificate struct {
	SubjectInfo  map[string]any `json:"subjectInfo"`
	SerialNumber string         `json:"serialNumber"`
	SubjectName  string         `json:"subjectName"`
	IssuerName   string         `json:"issuerName"`
	ValidFrom    string         `json:"validFrom"`
	ValidTo      string         `json:"validTo"`
}

func (c *certificate) subject(key string) string {
	s, _ := c.SubjectInfo[key].(string)
	return strings.TrimSpace(s)
}

// accept applies our rules to a verify answer: the signed document is the
// hash, and the signer holding signerIN's certificate is fully valid.
func accept(info *pkcs7Info, documentHash, signerIN string) (*Certificate, error) {
	if info == nil || len(info.Signers) == 0 {
		return nil, refused("The E-IMZO server found no signer in the signature", "")
	}
	doc, err := base64.StdEncoding.DecodeString(info.DocumentBase64)
	if err != nil || string(doc) != documentHash {
		return nil, signflow.Errorf(signflow.EINVALID,
			"The signature is not over this contract: the signed text must be its document hash %s. Nothing was signed.", documentHash)
	}
	var others []string
	for i := range info.Signers {
		s := &info.Signers[i]
		if len(s.Certificate) == 0 {
			continue
		}
		c := &s.Certificate[0]
		if !holds(c, signerIN) {
			others = append(others, holder(c))
			continue
		}
		if err := s.valid(); err != nil {
			return nil, err
		}
		out := &Certificate{SerialNumber: c.SerialNumber, CommonName: c.subject("CN"), Organization: c.subject("O"),
			TIN: c.subject(OIDTIN), PINFL: c.subject(OIDPINFL), Issuer: c.IssuerName, ValidFrom: c.ValidFrom,
			ValidTo: c.ValidTo, SigningTime: s.SigningTime}
		if s.TimeStampInfo != nil {
			out.Timestamp = s.TimeStampInfo.Time
		}
		return out, nil
	}
	if len(others) == 0 {
		return nil, refused("The E-IMZO server described no signer certificate", "")
	}
	return nil, signflow.Errorf(signflow.EINVALID,
		"The signature was made with the certificate of %s, not of the signer %s; sign with the signer's own key. Nothing was signed.",
		strings.Join(others, ", "), signerIN)
}

// holds reports whether the certificate is signerIN's: a legal entity's
// (9 digits) by its taxpayer number, a person's (14 digits) by the
// personal number of a personal certificate. The "UID" field, a person's
// own taxpayer number, never counts for a legal entity.
func holds(c *certificate, signerIN string) bool {
	tin, pinfl := c.subject(OIDTIN), c.subject(OIDPINFL)
	switch len(signerIN) {
	case 9:
		return tin == signerIN
	case 14:
		return tin == "" && pinfl == signerIN
	}
	return false
}

// holder names the owner of a certificate for a refusal.
func holder(c *certificate) string {
	switch {
	case c.subject(OIDTIN) != "":
		return "taxpayer " + c.subject(OIDTIN)
	case c.subject(OIDPINFL) != "":
		return "person " + c.subject(OIDPINFL)
	}
	return "an unidentified holder"
}

// valid requires every check the server reports to have passed.
func (s *signer) valid() error {
	switch {
	case !s.Verified:
		return signflow.Errorf(signflow.EINVALID, "The signature is not valid. Nothing was signed.")
	case !s.CertificateVerified:
		return signflow.Errorf(signflow.EINVALID, "The signer's certificate chain could not be verified. Nothing was signed.")
	case !s.CertificateValidAtSigningTime:
		return signflow.Errorf(signflow.EINVALID, "The signer's certificate was not valid at the time of signing. Nothing was signed.")
	case present(s.RevokedStatusInfo):
		return signflow.Errorf(signflow.EINVALID, "The signer's certificate is revoked or suspended. Nothing was signed.")
	case present(s.Exception):
		return refused("The E-IMZO server could not verify the signature", text(s.Exception))
	case s.TimeStampInfo != nil && !s.TimeStampInfo.Verified:
		return signflow.Errorf(signflow.EINVALID, "The signature's timestamp is not valid. Nothing was signed.")
	}
	return nil
}

// present reports whether an optional field holds something.
func present(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s != "" && s != "null" && s != `""` && s != "{}" && s != "[]" && s != "false"
}

func text(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}
