// Package static serves the style sheets and scripts the appliance's pages
// link to. A set's Version is a digest of all its files; the pages put it in
// their links (?v=), so a file can be cached for a day and still be fresh
// after an upgrade.
package static

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// File is one file of a set: its name in the URL and its body. Cache is its
// Cache-Control, by default a day (the pages' links carry the version).
type File struct {
	Name  string
	Body  []byte
	Cache string
}

// Set is the files of one page family, served by name.
type Set struct {
	files   map[string]*entry
	Version string
}

type entry struct {
	body         []byte
	ctype, cache string
	etag         string
}

// New makes a set of files; their order fixes the version.
func New(files ...File) *Set {
	s := &Set{files: make(map[string]*entry, len(files))}
	all := sha256.New()
	for _, f := range files {
		if f.Cache == "" {
			f.Cache = "public, max-age=86400"
		}
		sum := sha256.Sum256(f.Body)
		s.files[f.Name] = &entry{body: f.Body, ctype: TypeOf(f.Name), cache: f.Cache, etag: `"` + hex.EncodeToString(sum[:8]) + `"`}
		all.Write(f.Body)
	}
	s.Version = hex.EncodeToString(all.Sum(nil))[:12]
	return s
}

// TypeOf is the content type of a style sheet or a script by its name.
func TypeOf(name string) string {
	if strings.HasSuffix(name, ".css") {
		return "text/css; charset=utf-8"
	}
	return "text/javascript; charset=utf-8"
}

// Serve answers the file named by the route's :name parameter.
func (s *Set) Serve(c echo.Context) error {
	return s.ServeFile(c, c.Param("name"))
}

// ServeFile answers the file name. The files are public, so other origins
// may load them too (the SDK is loaded by integrators' pages).
func (s *Set) ServeFile(c echo.Context, name string) error {
	f := s.files[name]
	if f == nil {
		return echo.ErrNotFound
	}
	hd := c.Response().Header()
	hd.Set("Cache-Control", f.cache)
	hd.Set("ETag", f.etag)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cross-Origin-Resource-Policy", "cross-origin")
	if c.Request().Header.Get("If-None-Match") == f.etag {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, f.ctype, f.body)
}

// Read reads a file embedded at build time; a missing one is a build defect.
func Read(fsys fs.FS, name string) []byte {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		panic(err)
	}
	return b
}

// OwnPageHeaders keep a page of the appliance's own (cabinet, console) to
// its own files and out of frames.
func OwnPageHeaders(hd http.Header) {
	hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "+
		"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
	hd.Set("Cache-Control", "no-store")
	hd.Set("Referrer-Policy", "same-origin")
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("X-Frame-Options", "DENY")
}
