package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// exchange is one request and its response, bodies read.
type exchange struct {
	req      *http.Request
	reqBody  []byte
	route    *routers.Route
	params   map[string]string
	resp     *http.Response
	respBody []byte
}

// Formats the documents use beyond kin-openapi's defaults. Responses carry
// date-times in the one wire form, UTC in whole seconds; requests may use
// any RFC 3339 form.
var (
	uuidFormat         = openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562)
	wireDateTimeFormat = openapi3.NewRegexpFormatValidator(WireDate.String())
)

// check returns every way the exchange departs from the document.
func (s *spec) check(ex *exchange, checkRequest bool) []string {
	ctx := context.Background()
	var problems []string
	in := &openapi3filter.RequestValidationInput{Request: ex.req.Clone(ctx), PathParams: ex.params, Route: ex.route,
		Options: &openapi3filter.Options{
			MultiError:              true,
			SkipSettingDefaults:     true,
			AuthenticationFunc:      credentialPresent,
			SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.WithStringFormatValidator("uuid", uuidFormat)},
		}}
	in.Request.Body = io.NopCloser(bytes.NewReader(ex.reqBody))
	if checkRequest {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			problems = append(problems, describe("request", err)...)
		}
	}
	out := &openapi3filter.ResponseValidationInput{RequestValidationInput: in, Status: ex.resp.StatusCode,
		Header: ex.resp.Header, Options: &openapi3filter.Options{
			MultiError:            true,
			IncludeResponseStatus: true,
			SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.WithStringFormatValidators(
				map[string]openapi3.StringFormatValidator{"uuid": uuidFormat, "date-time": wireDateTimeFormat})},
		}}
	out.SetBodyBytes(ex.respBody)
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		problems = append(problems, describe("response", err)...)
	}
	problems = append(problems, wireRules(ex)...)
	if len(problems) == 0 && checkRequest {
		s.mu.Lock()
		s.seen[ex.route.Method+" "+ex.route.Path] = true
		s.mu.Unlock()
	}
	return problems
}

// credentialPresent meets a security requirement when the request carries
// the credential the scheme names; checking it is the server's job.
func credentialPresent(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	s, h := in.SecurityScheme, in.RequestValidationInput.Request.Header
	switch {
	case s.Type == "http" && strings.EqualFold(s.Scheme, "bearer"):
		scheme, token, ok := strings.Cut(h.Get("Authorization"), " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			return errors.New("no Authorization: Bearer token")
		}
	case s.Type == "apiKey" && s.In == "header":
		if h.Get(s.Name) == "" {
			return fmt.Errorf("no %s header", s.Name)
		}
	default:
		return fmt.Errorf("security scheme %s/%s not understood by apitest", s.Type, s.Scheme)
	}
	return nil
}

var pdfMagic = []byte("%PDF-")

// wireRules checks what a schema cannot say: the exact JSON content type,
// the error body's agreement with the status and request, a real PDF.
func wireRules(ex *exchange) []string {
	var problems []string
	status := ex.resp.StatusCode
	ct := ex.resp.Header.Get("Content-Type")
	mt, params, _ := mime.ParseMediaType(ct)
	switch mt {
	case "application/json":
		if !strings.EqualFold(params["charset"], "utf-8") || len(params) != 1 {
			problems = append(problems, fmt.Sprintf("Content-Type %q, want \"application/json; charset=utf-8\"", ct))
		}
		if status >= 400 {
			problems = append(problems, errorBodyRules(ex)...)
		}
	case "application/pdf":
		if !bytes.HasPrefix(ex.respBody, pdfMagic) {
			problems = append(problems, "the application/pdf body does not begin with %PDF-")
		}
	}
	return problems
}

func errorBodyRules(ex *exchange) []string {
	var body struct {
		Code        int     `json:"code"`
		Status      string  `json:"status"`
		Message     string  `json:"message"`
		Path        *string `json:"path"`
		Description *string `json:"description"`
	}
	if err := json.Unmarshal(ex.respBody, &body); err != nil {
		return nil // the schema check has said what is wrong
	}
	var problems []string
	status := ex.resp.StatusCode
	if body.Code != status {
		problems = append(problems, fmt.Sprintf("error body code %d, want the status %d", body.Code, status))
	}
	if want := strconv.Itoa(status) + " " + http.StatusText(status); body.Status != want {
		problems = append(problems, fmt.Sprintf("error body status %q, want %q", body.Status, want))
	}
	if body.Path != nil && *body.Path != ex.req.URL.Path {
		problems = append(problems, fmt.Sprintf("error body path %q, want the request path %q", *body.Path, ex.req.URL.Path))
	}
	if body.Description != nil && *body.Description != body.Message {
		problems = append(problems, fmt.Sprintf("error body description %q differs from message %q", *body.Description, body.Message))
	}
	return problems
}

// describe turns a kin-openapi error into short reasons, one per problem,
// each schema problem with the JSON pointer of the offending value.
func describe(side string, err error) []string {
	var out []string
	var walk func(where string, err error)
	walk = func(where string, err error) {
		switch e := err.(type) {
		case openapi3.MultiError:
			for _, each := range e {
				walk(where, each)
			}
			return
		case *openapi3filter.RequestError:
			switch {
			case e.Parameter != nil:
				where = e.Parameter.In + " parameter " + e.Parameter.Name
			case e.RequestBody != nil:
				where = "body"
			}
			if e.Err != nil {
				walk(where, e.Err)
				return
			}
		case *openapi3filter.ResponseError:
			if where = "body"; strings.Contains(e.Reason, "header") {
				where = e.Reason
			}
			if e.Err != nil {
				walk(where, e.Err)
				return
			}
		case *openapi3.SchemaError:
			// A format's reason ends with its whole regular expression: noise.
			reason, _, _ := strings.Cut(e.Reason, " (string doesn't match pattern")
			out = append(out, fmt.Sprintf("%s %s at /%s: %s", side, where, strings.Join(e.JSONPointer(), "/"), reason))
			return
		}
		out = append(out, strings.TrimSpace(side+" "+where)+": "+oneLine(err.Error()))
	}
	walk("", err)
	return out
}

var spaces = regexp.MustCompile(`\s+`)

func oneLine(s string) string {
	s = spaces.ReplaceAllString(s, " ")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}
