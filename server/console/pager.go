package console

import (
	"net/url"
	"strconv"

	"contracts/server/i18n"
)

// pager leads from a page of a list, newest first, to the pages beside
// it (layout.html's "pager").
type pager struct {
	Label, Text          string // the navigation's name; "Page 2 of 5"
	Newer, Older         string // the URLs of the pages beside this one
	NewerText, OlderText string
}

// pagerOf is the pager of page (0 the newest) of a list of total items,
// size to a page, at path with the list's filter in query; nil when the
// list fits one page.
func pagerOf(t i18n.Dict, path string, query url.Values, page, total, size int) *pager {
	pages := (total + size - 1) / size
	if pages <= 1 {
		return nil
	}
	p := &pager{Label: t["pages"], NewerText: t["newerPage"], OlderText: t["olderPage"],
		Text: t.F("pageNofM", "page", strconv.Itoa(page+1), "pages", strconv.Itoa(pages))}
	link := func(n int) string {
		q := url.Values{}
		for k, vs := range query {
			if len(vs) > 0 && vs[0] != "" {
				q.Set(k, vs[0])
			}
		}
		q.Set("page", strconv.Itoa(n))
		return path + "?" + q.Encode()
	}
	if page > 0 {
		p.Newer = link(min(page, pages) - 1)
	}
	if page+1 < pages {
		p.Older = link(page + 1)
	}
	return p
}

// pageParam is the page a list is asked for, 0 the newest.
func pageParam(s string) int {
	n, _ := strconv.Atoi(s)
	return max(n, 0)
}
