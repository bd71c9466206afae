package keyapi

import (
	"net/http"
	"strconv"
	"strings"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Paging of GET /v1/contracts.
const (
	defaultSize = 20
	// maxSize is the spec's maximum page size. A larger size is not an
	// error: it is clamped to maxSize, and the page's "size" says so.
	maxSize = 100
)

// contractPage is the spec's page object.
type contractPage struct {
	Content       []contractResponse `json:"content"`
	TotalElements int                `json:"totalElements"`
	TotalPages    int                `json:"totalPages"`
	Number        int                `json:"number"`
	Size          int                `json:"size"`
}

// listContracts is GET /v1/contracts: the contracts in which the key owner
// is a party (the creator always is), of the key's templates, newest
// first, one page at a time. Query: statuses (repeated, or comma
// separated), templateId, search (contract number, a party's number or its
// prefix, words of a party's name), page (from 0) and size (default 20,
// larger than 100 is clamped to 100). page < 0, size < 1 or either not an
// integer is 400. values is empty in list items.
func (h *handler) listContracts(c echo.Context) error {
	q, err := listQuery(c)
	if err != nil {
		return err
	}
	views, total, err := h.svc.ListContracts(access(c), q)
	if err != nil {
		return err
	}
	out := contractPage{Content: make([]contractResponse, 0, len(views)), TotalElements: total,
		TotalPages: (total + q.Size - 1) / q.Size, Number: q.Page, Size: q.Size}
	for _, v := range views {
		out.Content = append(out.Content, contractOf(v, false))
	}
	return server.JSON(c, http.StatusOK, out)
}

// listQuery reads the list's query parameters; the service checks their
// bounds, the status names and the template id.
func listQuery(c echo.Context) (signflow.ContractQuery, error) {
	params := c.QueryParams()
	q := signflow.ContractQuery{TemplateID: strings.TrimSpace(params.Get("templateId")),
		Search: strings.TrimSpace(params.Get("search"))}
	var err error
	if q.Page, err = intParam(params.Get("page"), "page", 0); err != nil {
		return q, err
	}
	if q.Size, err = intParam(params.Get("size"), "size", defaultSize); err != nil {
		return q, err
	}
	q.Size = min(q.Size, maxSize)
	for _, v := range params["statuses"] {
		for _, st := range strings.Split(v, ",") {
			if st = strings.TrimSpace(st); st != "" {
				q.Statuses = append(q.Statuses, st)
			}
		}
	}
	return q, nil
}

// intParam parses an integer query parameter, def when absent.
func intParam(s, name string, def int) (int, error) {
	if s == "" {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, signflow.Errorf(signflow.EINVALID, "%s: must be an integer", name)
	}
	return n, nil
}
