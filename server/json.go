package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// MIMEJSON is the content type of every JSON answer, errors included.
const MIMEJSON = "application/json; charset=utf-8"

// MaxBody is the largest request body accepted.
const MaxBody = 1 << 20

// MaxUpload is the largest file an upload route takes: a PDF to verify.
const MaxUpload = 10 << 20

// JSON writes v with the service's JSON content type.
func JSON(c echo.Context, code int, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return JSONBlob(c, code, buf.Bytes())
}

// JSONBlob writes b, JSON already encoded, with the service's JSON content
// type and its length: an answer of a known length goes out in one piece,
// not in chunks. It does what echo's Blob does (a content type set before
// stays), with the headers' canonical keys written directly and the
// content type's value shared.
func JSONBlob(c echo.Context, code int, b []byte) error {
	res := c.Response()
	h := res.Header()
	h[echo.HeaderContentLength] = []string{strconv.Itoa(len(b))}
	if v := h[echo.HeaderContentType]; len(v) == 0 || v[0] == "" {
		h[echo.HeaderContentType] = mimeJSON
	}
	res.WriteHeader(code)
	_, err := res.Write(b)
	return err
}

// mimeJSON is the content type's header value; its capacity of one makes
// an append elsewhere copy it rather than write into it.
var mimeJSON = []string{MIMEJSON}[:1:1]

// ReadBody reads the request body, refusing more than MaxBody bytes. A
// body of a declared length is read into one slice of that length (net/http
// holds the body to it), not grown from 512 bytes as io.ReadAll does.
func ReadBody(c echo.Context) ([]byte, error) {
	r := c.Request()
	var data []byte
	var err error
	if n := r.ContentLength; n > 0 && n <= MaxBody {
		data = make([]byte, n)
		_, err = io.ReadFull(r.Body, data)
	} else {
		data, err = io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
	}
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, signflow.Errorf(signflow.ETOOLARGE, "The request body is larger than 1 MiB.")
		}
		return nil, signflow.Errorf(signflow.EINVALID, "The request body could not be read.")
	}
	if len(data) > MaxBody {
		return nil, signflow.Errorf(signflow.ETOOLARGE, "The request body is larger than 1 MiB.")
	}
	return data, nil
}

// Bind decodes a JSON body into v. Unknown fields are ignored; malformed
// JSON and wrong types are EINVALID naming the field.
func Bind(c echo.Context, v any) error {
	data, err := ReadBody(c)
	if err != nil {
		return err
	}
	return Decode(data, v)
}

// Decode is Bind for bytes already read.
func Decode(data []byte, v any) error {
	if len(bytes.TrimSpace(data)) == 0 {
		return signflow.Errorf(signflow.EINVALID, "The request body is empty; a JSON object is required.")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return signflow.Errorf(signflow.EINVALID, "Malformed request: %s", signflow.DescribeJSONError(err))
	}
	if dec.More() {
		return signflow.Errorf(signflow.EINVALID, "Malformed request: one JSON value expected")
	}
	return nil
}
