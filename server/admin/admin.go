// Package admin serves the admin listener: the provisioning API
// (docs/admin-api.md) behind a bearer token, health, readiness and metrics.
package admin

import (
	"crypto/subtle"
	"io"
	"net/http"
	"net/http/pprof"
	"strings"

	"contracts/server"
	"contracts/signflow"

	"github.com/labstack/echo/v4"
)

// Backuper writes a consistent snapshot of the database.
type Backuper interface {
	Backup(w io.Writer) (int64, error)
}

// Deps is what the admin routes need.
type Deps struct {
	Service *signflow.Service
	// DB writes the snapshots of GET /admin/v1/backup; nil where the
	// database is PostgreSQL, backed up with its own tools.
	DB      Backuper
	Token   string
	Metrics *server.Metrics
	Ready   func() error
	// Redelivered is told when a delivery is queued again, to wake the workers.
	Redelivered func()
	// Warnings are settings that work but need the operator's attention;
	// /readyz lists them and stays 200.
	Warnings []string
}

type handler struct{ Deps }

// Register mounts the admin routes on e.
func Register(e *echo.Echo, d Deps) {
	h := &handler{d}
	e.GET("/healthz", func(c echo.Context) error { return server.JSON(c, http.StatusOK, map[string]string{"status": "ok"}) })
	e.GET("/readyz", h.ready)
	e.GET("/metrics", echo.WrapHandler(d.Metrics.Handler()))
	g := e.Group("/admin/v1", h.auth)
	g.POST("/owners", h.createOwner)
	g.POST("/owners/:in/payments", h.setMerchant)
	g.POST("/templates", h.createTemplate)
	g.PUT("/templates/:id", h.updateTemplate)
	g.POST("/templates/:id/publish", h.publishTemplate)
	g.POST("/templates/:id/unpublish", h.unpublishTemplate)
	g.POST("/apps", h.createApp)
	g.POST("/apps/:appId/secret", h.rotateSecret)
	g.POST("/apps/:appId/cancel", h.cancelApp)
	g.POST("/keys", h.createKey)
	g.POST("/keys/:id/revoke", h.revokeKey)
	g.GET("/deliveries", h.listDeliveries)
	g.POST("/deliveries/:id/redeliver", h.redeliver)
	g.GET("/backup", h.backup)
	// Profiles for operators, behind the same token.
	e.GET("/debug/pprof/*", echo.WrapHandler(http.HandlerFunc(pprof.Index)), h.auth)
	e.GET("/debug/pprof/profile", echo.WrapHandler(http.HandlerFunc(pprof.Profile)), h.auth)
}

// auth checks the admin bearer token in constant time.
func (h *handler) auth(next echo.HandlerFunc) echo.HandlerFunc {
	want := []byte("Bearer " + h.Token)
	return func(c echo.Context) error {
		got := []byte(c.Request().Header.Get(echo.HeaderAuthorization))
		if h.Token == "" || subtle.ConstantTimeCompare(got, want) != 1 {
			return signflow.Errorf(signflow.EUNAUTHORIZED, "The admin token is missing or wrong.")
		}
		return next(c)
	}
}

func (h *handler) ready(c echo.Context) error {
	if h.Ready != nil {
		if err := h.Ready(); err != nil {
			return signflow.Errorf(signflow.EUNAVAILABLE, "Not ready: %s", err.Error())
		}
	}
	return server.JSON(c, http.StatusOK, Readiness{Status: "ready", Warnings: h.Warnings})
}

func (h *handler) createOwner(c echo.Context) error {
	var in signflow.Client
	if err := server.Bind(c, &in); err != nil {
		return err
	}
	out, saved, err := h.Service.SaveOwner(&in)
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, OwnerSaved{Client: out, Result: saved.Result, Changed: saved.Changed})
}

func (h *handler) createTemplate(c echo.Context) error {
	def, err := definition(c)
	if err != nil {
		return err
	}
	t, err := h.Service.CreateTemplate(def)
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, templateCreated(t))
}

// updateTemplate is PUT /admin/v1/templates/{id}: the definition becomes
// the template's next version.
func (h *handler) updateTemplate(c echo.Context) error {
	def, err := definition(c)
	if err != nil {
		return err
	}
	t, err := h.Service.UpdateTemplate(c.Param("id"), def)
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, TemplateUpdated{TemplateCreated: templateCreated(t), Version: t.Version})
}

// definition reads a template definition, YAML or JSON by its Content-Type.
func definition(c echo.Context) (*signflow.TemplateDefinition, error) {
	data, err := server.ReadBody(c)
	if err != nil {
		return nil, err
	}
	isYAML := strings.Contains(c.Request().Header.Get(echo.HeaderContentType), "yaml")
	return signflow.ParseTemplateDefinition(data, isYAML)
}

func templateCreated(t *signflow.Template) TemplateCreated {
	out := TemplateCreated{ID: t.ID, Fields: []TemplateField{}}
	for _, f := range t.Fields {
		out.Fields = append(out.Fields, TemplateField{ID: f.ID, KeyName: f.KeyName})
	}
	return out
}

func (h *handler) publishTemplate(c echo.Context) error {
	if err := h.Service.PublishTemplate(c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *handler) unpublishTemplate(c echo.Context) error {
	if err := h.Service.UnpublishTemplate(c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *handler) createApp(c echo.Context) error {
	var in signflow.CredentialInput
	if err := server.Bind(c, &in); err != nil {
		return err
	}
	cred, err := h.Service.CreateApp(&in)
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, AppCreated{AppID: cred.ID, AppSecret: cred.Secret, WebhookSecret: cred.WebhookSecret})
}

func (h *handler) rotateSecret(c echo.Context) error {
	secret, err := h.Service.RotateAppSecret(c.Param("appId"))
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, AppSecret{AppSecret: secret})
}

func (h *handler) cancelApp(c echo.Context) error {
	if err := h.Service.CancelApp(c.Param("appId")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *handler) createKey(c echo.Context) error {
	var in signflow.CredentialInput
	if err := server.Bind(c, &in); err != nil {
		return err
	}
	cred, err := h.Service.CreateKey(&in)
	if err != nil {
		return err
	}
	return server.JSON(c, http.StatusOK, KeyCreated{ID: cred.ID, Key: cred.Secret, WebhookSecret: cred.WebhookSecret})
}

func (h *handler) revokeKey(c echo.Context) error {
	if err := h.Service.RevokeKey(c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

func (h *handler) backup(c echo.Context) error {
	if h.DB == nil {
		return signflow.Errorf(signflow.EINVALID, "backup: this appliance keeps its data in PostgreSQL: back the database up with pg_dump (docs/operations.md)")
	}
	c.Response().Header().Set(echo.HeaderContentType, "application/octet-stream")
	c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="contracts.db"`)
	c.Response().WriteHeader(http.StatusOK)
	_, err := h.DB.Backup(c.Response())
	return err
}
